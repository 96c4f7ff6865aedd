#if canImport(Glibc)
import Glibc
#endif

/// Trains `BoostedTrees` for a yes/no target by gradient boosting on the logistic loss, with
/// second-order leaf values (Newton steps) and splits searched over quantile bins, as XGBoost and
/// LightGBM do. Deterministic: the same rows in the same order give the same model.
public struct BoostedTreesTrainer: Sendable, Hashable {
    /// Number of trees.
    public var trees: Int
    public var learningRate: Float
    /// Levels of splits per tree (3 gives at most 8 leaves).
    public var maximumDepth: Int
    /// Rows each leaf must keep, so no leaf speaks for a handful of trials.
    public var minimumLeafRows: Int
    /// Candidate split points per feature, at quantiles of the training values.
    public var bins: Int
    /// L2 penalty on leaf values (λ).
    public var l2: Float
    /// Models averaged (`BoostedTrees(averaging:)`), each trained without one share of the groups
    /// (the subjects): 1 trains one model. An average of models that each missed different
    /// people depends less on any one person, and on the small accidents of one fit (where the
    /// quantile bins fall, which split wins a near tie) that otherwise move a fold's figures when
    /// a few rows change.
    public var bags: Int

    public init(
        trees: Int = 400, learningRate: Float = 0.05, maximumDepth: Int = 3, minimumLeafRows: Int = 20, bins: Int = 64, l2: Float = 1,
        bags: Int = 5
    ) {
        self.bags = bags
        self.trees = trees
        self.learningRate = learningRate
        self.maximumDepth = maximumDepth
        self.minimumLeafRows = minimumLeafRows
        self.bins = bins
        self.l2 = l2
    }

    /// Fits `labels` (true = positive) from `rows`' first `featureCount` entries. With `bags` above
    /// 1, `groups` says whose each row is (a subject's number, say): member k of the average trains
    /// without the groups whose rank among the distinct groups is k modulo `bags` (modulo the
    /// number of groups when there are fewer); a member left without both classes is not made.
    /// Without `groups`, each row is its own group.
    /// Throws `.noData` without both classes, `.invalidArgument` for bad settings.
    public func train(rows: [FallFeatureVector], labels: [Bool], featureCount: Int, groups: [Int]? = nil) throws(FallDetectError) -> BoostedTrees {
        guard trees >= 1, maximumDepth >= 1, minimumLeafRows >= 1, bins >= 2, bins <= 256, learningRate > 0, l2 >= 0, bags >= 1 else {
            throw FallDetectError(.invalidArgument, "trees, depth, leaf rows and bags must be positive and bins 2…256", field: "trainer")
        }
        guard rows.count == labels.count, groups.map({ $0.count == rows.count }) ?? true, (1...16).contains(featureCount) else {
            throw FallDetectError(.invalidArgument, "\(rows.count) rows, \(labels.count) labels, \(featureCount) features", field: "rows")
        }
        guard bags > 1 else { return try fit(rows: rows, labels: labels, featureCount: featureCount) }
        let groups = groups ?? Array(rows.indices)
        let rank = Dictionary(uniqueKeysWithValues: Set(groups).sorted().enumerated().map { ($1, $0) })
        // Fewer groups than bags: one member without each group (more would repeat a member).
        let count = min(bags, rank.count)
        var members: [BoostedTrees] = []
        for k in 0..<count {
            let kept = rows.indices.filter { rank[groups[$0]]! % count != k }
            let keptLabels = kept.map { labels[$0] }
            guard keptLabels.contains(true), keptLabels.contains(false) else { continue }
            members.append(try fit(rows: kept.map { rows[$0] }, labels: keptLabels, featureCount: featureCount))
        }
        guard let model = BoostedTrees(averaging: members) else {
            throw FallDetectError(.noData, "no bag of \(bags) holds both classes", field: "labels")
        }
        return model
    }

    /// One model on all of `rows`.
    func fit(rows: [FallFeatureVector], labels: [Bool], featureCount: Int) throws(FallDetectError) -> BoostedTrees {
        let positives = labels.reduce(0) { $0 + ($1 ? 1 : 0) }
        guard positives > 0, positives < labels.count else {
            throw FallDetectError(.noData, "training needs both classes: \(positives) positive of \(labels.count)", field: "labels")
        }
        let n = rows.count
        // Split points: distinct quantiles of each feature, halfway between neighbouring values.
        var edges: [[Float]] = []
        var binned = [UInt8](repeating: 0, count: n * featureCount)
        for f in 0..<featureCount {
            let sorted = rows.map { $0[f] }.sorted()
            var cuts: [Float] = []
            for q in 1..<bins {
                let k = min(n - 1, q * n / bins)
                guard k > 0 else { continue }
                let (a, b) = (sorted[k - 1], sorted[k])
                if a < b, cuts.last.map({ $0 < a / 2 + b / 2 }) ?? true { cuts.append(a / 2 + b / 2) }
            }
            edges.append(cuts)
            for i in 0..<n {
                // Bin j holds values in (cuts[j-1], cuts[j]]: binary search for the first cut ≥ x.
                var lo = 0, hi = cuts.count
                let x = rows[i][f]
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if cuts[mid] < x { lo = mid + 1 } else { hi = mid }
                }
                binned[i * featureCount + f] = UInt8(lo)
            }
        }
        let base = Float(positives) / Float(n)
        let bias = log(base / (1 - base))
        var margins = [Float](repeating: bias, count: n)
        var gradients = [Float](repeating: 0, count: n)
        var hessians = [Float](repeating: 0, count: n)
        var nodes: [BoostedTrees.Node] = []
        var roots: [Int32] = []
        let builder = TreeBuilder(
            trainer: self, featureCount: featureCount, edges: edges, binned: binned)
        for _ in 0..<trees {
            for i in 0..<n {
                let p = 1 / (1 + exp(-margins[i]))
                gradients[i] = p - (labels[i] ? 1 : 0)
                hessians[i] = max(p * (1 - p), 1e-6)
            }
            let root = Int32(nodes.count)
            roots.append(root)
            builder.grow(Array(0..<n), depth: 0, gradients: gradients, hessians: hessians, into: &nodes)
            let model = BoostedTrees(featureCount: featureCount, bias: 0, nodes: nodes, roots: [root])
            for i in 0..<n { margins[i] += model.margin(rows[i]) }
        }
        return BoostedTrees(featureCount: featureCount, bias: bias, nodes: nodes, roots: roots)
    }

    /// Grows one tree depth-first, appending its nodes (parents before children).
    struct TreeBuilder {
        let trainer: BoostedTreesTrainer
        let featureCount: Int
        let edges: [[Float]]
        let binned: [UInt8]

        func grow(_ rows: [Int], depth: Int, gradients: [Float], hessians: [Float], into nodes: inout [BoostedTrees.Node]) {
            var g: Double = 0, h: Double = 0
            for i in rows {
                g += Double(gradients[i])
                h += Double(hessians[i])
            }
            let lambda = Double(trainer.l2)
            let leafValue = Float(-g / (h + lambda)) * trainer.learningRate
            let here = nodes.count
            nodes.append(.leaf(leafValue))
            guard depth < trainer.maximumDepth, rows.count >= 2 * trainer.minimumLeafRows else { return }
            let parentScore = g * g / (h + lambda)
            var best: (gain: Double, feature: Int, bin: Int)?
            for f in 0..<featureCount where !edges[f].isEmpty {
                let binCount = edges[f].count + 1
                var hg = [Double](repeating: 0, count: binCount)
                var hh = [Double](repeating: 0, count: binCount)
                var hc = [Int](repeating: 0, count: binCount)
                for i in rows {
                    let b = Int(binned[i * featureCount + f])
                    hg[b] += Double(gradients[i])
                    hh[b] += Double(hessians[i])
                    hc[b] += 1
                }
                var gl: Double = 0, hl: Double = 0, cl = 0
                for b in 0..<(binCount - 1) {
                    gl += hg[b]
                    hl += hh[b]
                    cl += hc[b]
                    let cr = rows.count - cl
                    guard cl >= trainer.minimumLeafRows, cr >= trainer.minimumLeafRows else { continue }
                    let gr = g - gl, hr = h - hl
                    let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parentScore
                    if gain > (best?.gain ?? 1e-9) { best = (gain, f, b) }
                }
            }
            guard let best else { return }
            var left: [Int] = [], right: [Int] = []
            for i in rows {
                if Int(binned[i * featureCount + best.feature]) <= best.bin { left.append(i) } else { right.append(i) }
            }
            let leftIndex = Int32(nodes.count)
            grow(left, depth: depth + 1, gradients: gradients, hessians: hessians, into: &nodes)
            let rightIndex = Int32(nodes.count)
            grow(right, depth: depth + 1, gradients: gradients, hessians: hessians, into: &nodes)
            nodes[here] = BoostedTrees.Node(
                feature: Int32(best.feature), threshold: edges[best.feature][best.bin], left: leftIndex, right: rightIndex, value: 0)
        }
    }
}

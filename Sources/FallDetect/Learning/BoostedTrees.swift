import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A gradient-boosted ensemble of small regression trees over a feature vector, read as a
/// logistic model: margin = bias + Σ tree(x), probability = 1 / (1 + e^−margin). A few hundred
/// comparisons per evaluation, no allocation: cheap enough for every candidate at 1 kHz on a Pi.
///
/// The text form (`text`, `init(text:)`) is what gets committed: a header, then one node a line.
public struct BoostedTrees: Sendable, Hashable {
    /// One node: a split (`feature` ≥ 0: x[feature] ≤ threshold goes left) or a leaf (`feature` −1).
    public struct Node: Sendable, Hashable {
        public var feature: Int32
        public var threshold: Float
        public var left: Int32
        public var right: Int32
        /// The leaf's contribution to the margin (learning rate included); 0 for splits.
        public var value: Float

        public init(feature: Int32, threshold: Float, left: Int32, right: Int32, value: Float) {
            self.feature = feature
            self.threshold = threshold
            self.left = left
            self.right = right
            self.value = value
        }

        public static func leaf(_ value: Float) -> Node { Node(feature: -1, threshold: 0, left: -1, right: -1, value: value) }
    }

    public var featureCount: Int
    public var bias: Float
    public var nodes: [Node]
    /// Index of each tree's root in `nodes`.
    public var roots: [Int32]

    public init(featureCount: Int, bias: Float, nodes: [Node], roots: [Int32]) {
        self.featureCount = featureCount
        self.bias = bias
        self.nodes = nodes
        self.roots = roots
    }

    public func margin(_ x: FallFeatureVector) -> Float {
        var sum = bias
        nodes.withUnsafeBufferPointer { all in
            for root in roots {
                var i = Int(root)
                while all[i].feature >= 0 {
                    let n = all[i]
                    i = Int(x[Int(n.feature)] <= n.threshold ? n.left : n.right)
                }
                sum += all[i].value
            }
        }
        return sum
    }

    /// One model whose margin is the mean of the `members`' margins: their trees side by side, each
    /// leaf scaled by 1/count. Nil when `members` is empty or they read different feature counts.
    public init?(averaging members: [BoostedTrees]) {
        guard let first = members.first, members.allSatisfy({ $0.featureCount == first.featureCount }) else { return nil }
        let scale = 1 / Float(members.count)
        var nodes: [Node] = []
        var roots: [Int32] = []
        nodes.reserveCapacity(members.reduce(0) { $0 + $1.nodes.count })
        for member in members {
            let offset = Int32(nodes.count)
            roots += member.roots.map { $0 + offset }
            nodes += member.nodes.map { n in
                n.feature < 0 ? .leaf(n.value * scale) : Node(feature: n.feature, threshold: n.threshold, left: n.left + offset, right: n.right + offset, value: 0)
            }
        }
        self.init(featureCount: first.featureCount, bias: members.reduce(0) { $0 + $1.bias } * scale, nodes: nodes, roots: roots)
    }

    public func probability(_ x: FallFeatureVector) -> Float { 1 / (1 + exp(-margin(x))) }

    static let magic = "detectord-boosted-trees 1"

    /// The committed form.
    public var text: String {
        var lines = [Self.magic, "features \(featureCount)", "bias \(bias)", "roots " + roots.map(String.init).joined(separator: " ")]
        for n in nodes {
            lines.append(n.feature < 0 ? "leaf \(n.value)" : "split \(n.feature) \(n.threshold) \(n.left) \(n.right)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `text`; errors name the line (and `path` when given) and the model is checked whole:
    /// every child index in range, every tree finite, features within `featureCount`. `firstLine`
    /// is the line number of `text`'s first line, for trees that follow a header in a larger file.
    public init(text: String, path: String? = nil, firstLine: Int = 1) throws(FallDetectError) {
        var featureCount: Int?
        var bias: Float?
        var roots: [Int32]?
        var nodes: [Node] = []
        var nodeLines: [Int] = []
        var rootsLine: Int?
        var lineNumber = firstLine - 1
        var lastLine = firstLine
        var sawMagic = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            lastLine = lineNumber
            func bad(_ why: String) -> FallDetectError { FallDetectError(.malformedRow, why, path: path, line: lineNumber) }
            if !sawMagic {
                guard line == Self.magic else { throw bad("expected '\(Self.magic)'") }
                sawMagic = true
                continue
            }
            let parts = line.split(separator: " ")
            switch parts[0] {
            case "features":
                guard parts.count == 2, let n = Int(parts[1]), n > 0, n <= 16 else { throw bad("features takes a count 1…16") }
                featureCount = n
            case "bias":
                guard parts.count == 2, let b = Float(parts[1]), b.isFinite else { throw bad("bias takes a finite number") }
                bias = b
            case "roots":
                let values = parts.dropFirst().compactMap { Int32($0) }
                guard values.count == parts.count - 1, !values.isEmpty else { throw bad("roots takes node indices") }
                roots = values
                rootsLine = lineNumber
            case "leaf":
                guard parts.count == 2, let v = Float(parts[1]), v.isFinite else { throw bad("leaf takes a finite value") }
                nodes.append(.leaf(v))
                nodeLines.append(lineNumber)
            case "split":
                guard parts.count == 5, let f = Int32(parts[1]), f >= 0, let t = Float(parts[2]), !t.isNaN, let l = Int32(parts[3]),
                    let r = Int32(parts[4])
                else { throw bad("split takes a feature index (0 or more), a threshold, and the left and right node indices") }
                nodes.append(Node(feature: f, threshold: t, left: l, right: r, value: 0))
                nodeLines.append(lineNumber)
            default:
                throw bad("unknown record '\(parts[0])'")
            }
        }
        guard let featureCount, let bias, let roots else {
            throw FallDetectError(.noData, "model ends at this line without its features, bias or roots line", path: path, line: lastLine)
        }
        for (i, n) in nodes.enumerated() where n.feature >= 0 {
            // Children must come after their parent, which also rules out cycles.
            guard Int(n.feature) < featureCount, n.left > i, n.right > i, Int(n.left) < nodes.count, Int(n.right) < nodes.count else {
                throw FallDetectError(
                    .malformedRow, "node \(i) reads a feature past \(featureCount) or points outside the model or back to an earlier node",
                    path: path, line: nodeLines[i], field: "split")
            }
        }
        guard roots.allSatisfy({ $0 >= 0 && Int($0) < nodes.count }) else {
            throw FallDetectError(.malformedRow, "a root points outside the model", path: path, line: rootsLine, field: "roots")
        }
        self.init(featureCount: featureCount, bias: bias, nodes: nodes, roots: roots)
    }
}

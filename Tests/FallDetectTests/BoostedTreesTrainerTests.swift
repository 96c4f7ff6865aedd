import Foundation
import Testing

@testable import FallDetect

/// The trainer on generated data whose rule is known.
@Suite struct BoostedTreesTrainerTests {
    static let features = 3

    /// Features uniform in [0, 1) from `SplitMix64`, labelled by `rule`.
    static func data(_ count: Int, seed: UInt64, rule: (FallFeatureVector) -> Bool) -> (rows: [FallFeatureVector], labels: [Bool]) {
        var rng = SplitMix64(seed: seed)
        var rows: [FallFeatureVector] = []
        var labels: [Bool] = []
        for _ in 0..<count {
            var v = FallFeatureVector()
            for f in 0..<features { v[f] = Float(Double(rng.next() >> 11) / Double(1 << 53)) }
            rows.append(v)
            labels.append(rule(v))
        }
        return (rows, labels)
    }

    static func accuracy(_ model: BoostedTrees, _ data: (rows: [FallFeatureVector], labels: [Bool])) -> Double {
        let right = zip(data.rows, data.labels).filter { (model.probability($0) >= 0.5) == $1 }.count
        return Double(right) / Double(data.rows.count)
    }

    static let threshold: @Sendable (FallFeatureVector) -> Bool = { $0[1] > 0.62 }
    static let xor: @Sendable (FallFeatureVector) -> Bool = { ($0[0] > 0.5) != ($0[2] > 0.5) }

    static let trainer = BoostedTreesTrainer(trees: 40, learningRate: 0.3, maximumDepth: 3, minimumLeafRows: 5, bins: 32, l2: 1, bags: 1)

    @Test func learnsAThresholdRule() throws {
        let train = Self.data(1500, seed: 11, rule: Self.threshold)
        let model = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        let test = Self.data(2000, seed: 12, rule: Self.threshold)
        #expect(Self.accuracy(model, test) >= 0.98, "held-out accuracy \(Self.accuracy(model, test))")
        // The first tree splits on the rule's feature, near the rule's threshold.
        let root = model.nodes[Int(model.roots[0])]
        #expect(root.feature == 1)
        #expect(abs(root.threshold - 0.62) < 0.05, "first split at \(root.threshold)")
        // The starting margin is the base rate's log-odds.
        let p = Double(train.labels.filter { $0 }.count) / Double(train.labels.count)
        #expect(abs(Double(model.bias) - log(p / (1 - p))) < 1e-4)
        #expect(model.roots.count == Self.trainer.trees)
    }

    @Test func learnsAnXorRuleThatNoSingleSplitSeparates() throws {
        let train = Self.data(2000, seed: 21, rule: Self.xor)
        let model = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        let test = Self.data(2000, seed: 22, rule: Self.xor)
        let accuracy = Self.accuracy(model, test)
        #expect(accuracy >= 0.95, "held-out accuracy \(accuracy)")
        // One tree of depth 1 cannot do better than chance-ish on XOR: the control.
        let stump = BoostedTreesTrainer(trees: 1, learningRate: 1, maximumDepth: 1, minimumLeafRows: 5, bins: 32, l2: 1, bags: 1)
        let weak = try stump.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        #expect(Self.accuracy(weak, test) < 0.65, "a stump reached \(Self.accuracy(weak, test))")
    }

    @Test func trainingIsDeterministic() throws {
        let train = Self.data(800, seed: 31, rule: Self.xor)
        let a = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        let b = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        #expect(a == b)
        #expect(a.text == b.text)
        // Different data gives a different model (the comparison can fail).
        let other = Self.data(800, seed: 32, rule: Self.xor)
        #expect(try Self.trainer.train(rows: other.rows, labels: other.labels, featureCount: Self.features) != a)
    }

    @Test func modelsAreWellFormedAndRoundTrip() throws {
        let train = Self.data(600, seed: 41, rule: Self.threshold)
        let model = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
        for (i, n) in model.nodes.enumerated() where n.feature >= 0 {
            #expect(Int(n.feature) < Self.features)
            #expect(Int(n.left) > i && Int(n.right) > i && Int(n.right) < model.nodes.count)
        }
        #expect(try BoostedTrees(text: model.text) == model)
    }

    /// Bagging by group: each member trains without one share of the groups, and the model is
    /// their average (as many trees as members times `trees`).
    @Test func baggedModelsAverageOneMemberPerShareOfTheGroups() throws {
        let train = Self.data(1500, seed: 71, rule: Self.threshold)
        var bagged = Self.trainer
        bagged.bags = 3
        let groups = train.rows.indices.map { $0 % 6 }
        let model = try bagged.train(rows: train.rows, labels: train.labels, featureCount: Self.features, groups: groups)
        #expect(model.roots.count == 3 * Self.trainer.trees)
        // Member 0 is the single model trained without groups 0 and 3 (ranks 0 and 3 modulo 3).
        let kept = train.rows.indices.filter { groups[$0] % 3 != 0 }
        let member = try Self.trainer.train(rows: kept.map { train.rows[$0] }, labels: kept.map { train.labels[$0] }, featureCount: Self.features)
        let firstTree = BoostedTrees(featureCount: Self.features, bias: 0, nodes: model.nodes, roots: [model.roots[0]])
        let memberTree = BoostedTrees(featureCount: Self.features, bias: 0, nodes: member.nodes, roots: [member.roots[0]])
        let test = Self.data(200, seed: 72, rule: Self.threshold)
        for x in test.rows { #expect(abs(firstTree.margin(x) * 3 - memberTree.margin(x)) < 1e-5) }
        #expect(Self.accuracy(model, test) >= 0.98)
        #expect(try bagged.train(rows: train.rows, labels: train.labels, featureCount: Self.features, groups: groups) == model)
        // Fewer groups than bags: one member per group left out, no repeats.
        let two = try bagged.train(rows: train.rows, labels: train.labels, featureCount: Self.features, groups: train.rows.indices.map { $0 % 2 })
        #expect(two.roots.count == 2 * Self.trainer.trees)
    }

    /// A member whose share left it one class is not made; when none has both, no model.
    @Test func aBagWithoutBothClassesIsLeftOut() throws {
        let train = Self.data(600, seed: 81, rule: Self.threshold)
        var bagged = Self.trainer
        bagged.bags = 3
        // Group 0 holds every positive and a third of the negatives: the member without it has no
        // positive; the members without group 1 or 2 have both.
        let groups = train.labels.indices.map { train.labels[$0] ? 0 : $0 % 3 }
        let model = try bagged.train(rows: train.rows, labels: train.labels, featureCount: Self.features, groups: groups)
        #expect(model.roots.count == 2 * Self.trainer.trees)
        bagged.bags = 2
        do {
            _ = try bagged.train(rows: train.rows, labels: train.labels, featureCount: Self.features, groups: train.labels.map { $0 ? 1 : 0 })
            Issue.record("bags that each hold one class trained")
        } catch {
            #expect(error.code == .noData)
        }
    }

    @Test(arguments: [true, false])
    func oneClassIsNoData(_ label: Bool) throws {
        let train = Self.data(100, seed: 51, rule: { _ in label })
        do {
            _ = try Self.trainer.train(rows: train.rows, labels: train.labels, featureCount: Self.features)
            Issue.record("one-class data trained")
        } catch {
            #expect(error.code == .noData)
            #expect(error.field == "labels")
        }
    }

    @Test func noRowsIsNoData() {
        do {
            _ = try Self.trainer.train(rows: [], labels: [], featureCount: 3)
            Issue.record("no rows trained")
        } catch {
            #expect(error.code == .noData)
        }
    }

    @Test func badArgumentsAreRejected() throws {
        let train = Self.data(100, seed: 61, rule: Self.threshold)
        func fails(_ t: BoostedTreesTrainer, rows: [FallFeatureVector]? = nil, labels: [Bool]? = nil, features: Int = 3) -> String? {
            do {
                _ = try t.train(rows: rows ?? train.rows, labels: labels ?? train.labels, featureCount: features)
                return nil
            } catch {
                return error.code == .invalidArgument ? error.field : "wrong code \(error.code)"
            }
        }
        var t = Self.trainer
        t.bins = 1
        #expect(fails(t) == "trainer")
        t = Self.trainer
        t.trees = 0
        #expect(fails(t) == "trainer")
        t = Self.trainer
        t.learningRate = 0
        #expect(fails(t) == "trainer")
        t = Self.trainer
        t.bags = 0
        #expect(fails(t) == "trainer")
        #expect(fails(Self.trainer, labels: Array(train.labels.dropLast())) == "rows")
        #expect(fails(Self.trainer, features: 0) == "rows")
        #expect(fails(Self.trainer, features: 17) == "rows")
    }
}

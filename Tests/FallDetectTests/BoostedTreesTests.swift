import Foundation
import Testing

@testable import FallDetect

/// Evaluation by hand, the text form's exact round trip and its parse errors.
@Suite struct BoostedTreesTests {
    typealias Node = BoostedTrees.Node

    /// Two trees over two features:
    ///   tree A: x0 ≤ 0.5 ? −1 : 2
    ///   tree B: x1 ≤ 10 ? (x0 ≤ −1 ? 0.5 : 0.125) : −0.75
    static let lines = [
        "detectord-boosted-trees 1",
        "features 2",
        "bias 0.25",
        "roots 0 3",
        "split 0 0.5 1 2",  // line 5, node 0
        "leaf -1",
        "leaf 2",
        "split 1 10 4 7",  // line 8, node 3
        "split 0 -1 5 6",
        "leaf 0.5",
        "leaf 0.125",
        "leaf -0.75",  // line 12, node 7
    ]
    static var text: String { lines.joined(separator: "\n") + "\n" }

    static func replacing(_ line: Int, with new: String) -> String {
        var l = lines
        l[line - 1] = new
        return l.joined(separator: "\n")
    }

    static func vector(_ values: Float...) -> FallFeatureVector {
        var v = FallFeatureVector()
        for (i, x) in values.enumerated() { v[i] = x }
        return v
    }

    @Test func marginWalksEachTreeWithLessOrEqualGoingLeft() throws {
        let model = try BoostedTrees(text: Self.text)
        #expect(model.featureCount == 2)
        #expect(model.roots == [0, 3])
        #expect(model.nodes.count == 8)
        // bias + tree A + tree B, leaf by leaf.
        #expect(model.margin(Self.vector(0.3, 20)) == 0.25 - 1 - 0.75)
        #expect(model.margin(Self.vector(0.5, 10)) == 0.25 - 1 + 0.125)  // both thresholds exactly: left
        #expect(model.margin(Self.vector(-2, 5)) == 0.25 - 1 + 0.5)
        #expect(model.margin(Self.vector(0.7, 0)) == 0.25 + 2 + 0.125)
        let m = model.margin(Self.vector(0.7, 0))
        #expect(abs(model.probability(Self.vector(0.7, 0)) - 1 / (1 + exp(-m))) < 1e-6)
        #expect(model.probability(Self.vector(0.3, 20)) < 0.5)
    }

    @Test func anAverageScoresTheMeanMarginOfItsMembers() throws {
        let a = try BoostedTrees(text: Self.text)
        // A second member: one stump on x1, another bias.
        let b = BoostedTrees(featureCount: 2, bias: -0.5, nodes: [Node(feature: 1, threshold: 3, left: 1, right: 2, value: 0), .leaf(4), .leaf(-2)], roots: [0])
        let average = try #require(BoostedTrees(averaging: [a, b]))
        #expect(average.roots.count == 3)
        #expect(average.nodes.count == a.nodes.count + b.nodes.count)
        for x in [Self.vector(0.3, 20), Self.vector(0.5, 10), Self.vector(-2, 5), Self.vector(0.7, 0), Self.vector(9, 3)] {
            let expected = (a.margin(x) + b.margin(x)) / 2
            #expect(abs(average.margin(x) - expected) < 1e-6, "\(x): \(average.margin(x)) against \(expected)")
        }
        // It is an ordinary model: it round-trips through text and loads as one.
        #expect(try BoostedTrees(text: average.text) == average)
        #expect(BoostedTrees(averaging: [a]) == a)
        #expect(BoostedTrees(averaging: []) == nil)
        #expect(BoostedTrees(averaging: [a, BoostedTrees(featureCount: 3, bias: 0, nodes: [.leaf(0)], roots: [0])]) == nil)
    }

    @Test func textRoundTripIsExact() throws {
        let model = try BoostedTrees(text: Self.text)
        let again = try BoostedTrees(text: model.text)
        #expect(again == model)
        #expect(again.text == model.text)
        // The canonical form differs from the hand-written one only in how numbers are spelled.
        #expect(model.text.split(separator: "\n").count == Self.lines.count)
        #expect(model.text.contains("leaf -1.0\n") && model.text.contains("split 1 10.0 4 7\n"))
    }

    /// Values whose shortest decimal form is long, tiny, negative zero or infinite survive bit for bit.
    @Test func awkwardFloatsRoundTripBitForBit() throws {
        let values: [Float] = [
            1 / 3, -Float.pi, Float.ulpOfOne, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0,
            0.1, 16_777_215, 1e-7, -123.456e5,
        ]
        var nodes: [BoostedTrees.Node] = []
        var roots: [Int32] = []
        for (k, v) in values.enumerated() {
            let i = Int32(nodes.count)
            roots.append(i)
            let threshold: Float = k == 0 ? .infinity : (k == 1 ? -.infinity : v)
            nodes.append(BoostedTrees.Node(feature: Int32(k % 12), threshold: threshold, left: i + 1, right: i + 2, value: 0))
            nodes.append(.leaf(v))
            nodes.append(.leaf(-v))
        }
        let model = BoostedTrees(featureCount: 12, bias: values[0], nodes: nodes, roots: roots)
        let parsed = try BoostedTrees(text: model.text)
        #expect(parsed.featureCount == 12)
        #expect(parsed.bias.bitPattern == model.bias.bitPattern)
        #expect(parsed.roots == model.roots)
        try #require(parsed.nodes.count == model.nodes.count)
        for (a, b) in zip(parsed.nodes, model.nodes) {
            #expect(a.feature == b.feature && a.left == b.left && a.right == b.right)
            #expect(a.threshold.bitPattern == b.threshold.bitPattern, "\(a.threshold) vs \(b.threshold)")
            #expect(a.value.bitPattern == b.value.bitPattern, "\(a.value) vs \(b.value)")
        }
        #expect(parsed.text == model.text)
    }

    @Test func theShippedModelRoundTrips() throws {
        let model = try FallModelFile.shipped().trees
        #expect(model.featureCount == FallCandidate.featureNames.count)
        let again = try BoostedTrees(text: model.text)
        #expect(again == model)
        #expect(again.text == model.text)
    }

    @Test func blankLinesAndSurroundingSpacesAreIgnored() throws {
        let padded = "\n  " + Self.lines.joined(separator: "  \n\n") + "\n\n"
        #expect(try BoostedTrees(text: padded) == BoostedTrees(text: Self.text))
    }

    // MARK: Errors

    static func error(_ text: String, path: String? = nil) -> FallDetectError? {
        do {
            _ = try BoostedTrees(text: text, path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func badMagicNamesItsLine() throws {
        let e = try #require(Self.error(Self.replacing(1, with: "detectord-boosted-trees 2"), path: "m.txt"))
        #expect(e.code == .malformedRow)
        #expect(e.line == 1)
        #expect(e.path == "m.txt")
        #expect(e.description.hasPrefix("m.txt:1: "))
        // After blank lines, the line counts them.
        let late = try #require(Self.error("\n\nhello\n" + Self.text))
        #expect(late.line == 3)
    }

    @Test(arguments: ["split 1 ten 4 7", "split 1 10 4", "split x 10 4 7", "split 1 10 4 7 9", "split 1 nan 4 7"])
    func badSplitNamesItsLine(_ line: String) throws {
        let e = try #require(Self.error(Self.replacing(8, with: line)), "\(line) was accepted")
        #expect(e.code == .malformedRow)
        #expect(e.line == 8)
    }

    @Test(arguments: [(2, "features 0"), (2, "features 17"), (3, "bias inf"), (3, "bias"), (4, "roots 0 x"), (4, "roots"), (6, "leaf nan"),
        (11, "leaf"), (10, "stump 0.5")])
    func otherBadRecordsNameTheirLine(_ line: Int, _ record: String) throws {
        let e = try #require(Self.error(Self.replacing(line, with: record)), "\(record) was accepted")
        #expect(e.code == .malformedRow)
        #expect(e.line == line, "\(record): \(e)")
    }

    @Test(arguments: [(5, "split 0 0.5 1 99"), (5, "split 0 0.5 8 2"), (8, "split 1 10 4 3"), (8, "split 1 10 2 7"), (5, "split 2 0.5 1 2")])
    func childIndexOutOfRangeOrBackwardsIsRejected(_ line: Int, _ record: String) throws {
        let e = try #require(Self.error(Self.replacing(line, with: record)), "\(record) was accepted")
        #expect(e.code == .malformedRow)
        #expect(e.field == "split")
        // The message names the node (line 5 holds node 0).
        #expect(e.message.contains("node \(line - 5)"), "\(e)")
    }

    @Test func rootOutOfRangeIsRejected() throws {
        let e = try #require(Self.error(Self.replacing(4, with: "roots 0 8")))
        #expect(e.code == .malformedRow)
        #expect(e.field == "roots")
    }

    @Test(arguments: [2, 3, 4])
    func aMissingHeaderLineIsNoData(_ line: Int) throws {
        var l = Self.lines
        l.remove(at: line - 1)
        let e = try #require(Self.error(l.joined(separator: "\n"), path: "model.txt"))
        #expect(e.code == .noData)
        #expect(e.path == "model.txt")
    }

    @Test func emptyTextIsRejected() {
        #expect(Self.error("") != nil)
        #expect(Self.error("\n\n") != nil)
    }

    @Test func anOutOfRangeChildNamesItsLine() throws {
        let text = "detectord-boosted-trees 1\nfeatures 2\nbias 0\nroots 0\nsplit 0 0.5 1 99\nleaf 1\nleaf 2\n"
        #expect(throws: FallDetectError.self) { try BoostedTrees(text: text, path: "m.txt") }
        do { _ = try BoostedTrees(text: text, path: "m.txt") } catch { #expect(error.line == 5) }
    }

    @Test func aSplitOnANegativeFeatureIsRejected() throws {
        let text = "detectord-boosted-trees 1\nfeatures 2\nbias 0\nroots 0\nsplit -1 0.5 1 2\nleaf 1\nleaf 2\n"
        do {
            _ = try BoostedTrees(text: text)
            Issue.record("split -1 accepted")
        } catch { #expect(error.line == 5) }
    }
}

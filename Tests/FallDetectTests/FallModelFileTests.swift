import Foundation
import Testing

@testable import FallDetect

#if canImport(Glibc)
import Glibc
#endif

/// The learned fall model as a versioned text file: the committed one, and what a damaged or
/// foreign file gets told.
@Suite struct FallModelFileTests {
    static let committedPath = SharedData.packageRoot + "/Sources/FallDetect/Resources/fall-model.txt"

    static func committedText() throws -> String { try String(contentsOfFile: committedPath, encoding: .utf8) }

    /// The committed text with line `number` (1-based) replaced.
    static func replacing(line number: Int, with replacement: String) throws -> String {
        var lines = try committedText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[number - 1] = replacement
        return lines.joined(separator: "\n")
    }

    /// The committed text without line `number` (1-based).
    static func removing(line number: Int) throws -> String {
        var lines = try committedText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.remove(at: number - 1)
        return lines.joined(separator: "\n")
    }

    /// The parse error of `text`; records an issue when there is none.
    static func error(parsing text: String, sourceLocation: SourceLocation = #_sourceLocation) -> FallDetectError? {
        #expect(throws: FallDetectError.self, sourceLocation: sourceLocation) { try FallModelFile(text: text, path: "m.txt") }
    }

    // MARK: The shipped model

    @Test func theCommittedFileRoundTripsByteForByte() throws {
        let text = try Self.committedText()
        let file = try FallModelFile.load(path: Self.committedPath)
        #expect(file.text == text)
        #expect(try FallModelFile(text: file.text, path: "again") == file)
    }

    /// The copy the build puts beside the test runner is the committed file.
    @Test func shippedIsTheCommittedFile() throws {
        let shipped = try FallModelFile.shipped()
        #expect(shipped == (try FallModelFile.load(path: Self.committedPath)))
        let found = try FallModelFile.shippedPath()
        #expect(found.hasSuffix("/detectord_FallDetect.resources/fall-model.txt"), "\(found)")
    }

    /// What the header says about the committed model; the trainer's and the augmentation's
    /// defaults are what it was trained with, so changing one without retraining fails here.
    @Test func theHeaderDescribesTheCommittedModel() throws {
        let file = try FallModelFile.shipped()
        #expect(file.threshold == 0.5)
        // SisFall's 28 development subjects, then HAPT's 15 development users (non-falls only).
        #expect(file.subjects.count == 43 && file.subjects.first == "SA01" && file.subjects[27] == "SE15" && file.subjects.last == "user15")
        #expect(!file.subjects.contains("SE06") && !file.subjects.contains("SA19") && !file.subjects.contains("user16"), "development subjects only")
        #expect(file.candidates == 20596 && file.falls == 2877)
        #expect(file.trainer == BoostedTreesTrainer())
        #expect(file.augmentation == (try FallAugmentation()))
        // One set of trees per bag.
        #expect(file.models == file.trainer.bags && file.trees.roots.count == file.trainer.trees * file.models)
        #expect(file.trees.featureCount == FallCandidate.featureNames.count)
    }

    /// Feature vectors spread over the ranges the tracker produces (deterministic).
    static func sweep() -> [FallFeatureVector] {
        var rng = SplitMix64(seed: 2026)
        func unit() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        let ranges: [(Float, Float)] = [
            (0, 2.5), (0, 1.2), (0, 90), (0, 120), (-40, 120), (2, 7), (0, 0.6), (-4, 1), (0, 0.8), (0, 120), (0, 120), (0, 1), (0, 180),
            (1, 6.5),
        ]
        return (0..<256).map { _ in
            var v = FallFeatureVector()
            for (i, r) in ranges.enumerated() { v[i] = r.0 + (r.1 - r.0) * unit() }
            return v
        }
    }

    /// The probabilities recorded from the shipped model when it was trained (`make train`, SisFall
    /// and HAPT's development users): reading it back gives the same trees, bit for bit.
    @Test func theShippedModelScoresAsWhenItWasTrained() throws {
        let judge = try LearnedFallJudge.shipped()
        #expect(judge.score(LearnedFallJudgeTests.clearFall).bitPattern == 0x3f7f_8cd8)  // 0.99824286
        #expect(judge.model.margin(LearnedFallJudgeTests.clearFall.features).bitPattern == 0x40ca_f3df)
        #expect(judge.model.probability(LearnedFallJudgeTests.clearNonFall.features).bitPattern == 0x388f_6bd4)  // 6.838856e-05
        #expect(judge.model.margin(LearnedFallJudgeTests.clearNonFall.features).bitPattern == 0xc119_719c)
        let probabilities = Self.sweep().map(judge.model.probability)
        let recorded: [UInt32] = [0x3c28_daf2, 0x3e85_0eba, 0x3f55_1bbd, 0x3d16_20e3, 0x3b8b_0443, 0x3a34_ea0e]
        #expect(probabilities.prefix(6).map(\.bitPattern) == recorded)
        #expect(probabilities.reduce(0, +).bitPattern == 0x42df_54a1)  // 111.66529
        #expect(probabilities.filter { $0 >= judge.threshold }.count == 106)
    }

    // MARK: Writing

    @Test func aNewModelWritesAndReadsBack() throws {
        let trees = BoostedTrees(
            featureCount: 14, bias: -0.25,
            nodes: [BoostedTrees.Node(feature: 4, threshold: 30.5, left: 1, right: 2, value: 0), .leaf(-1.5), .leaf(2.125)], roots: [0])
        let file = try FallModelFile(
            trees: trees, threshold: 0.4, subjects: ["SA01", "SE02"], candidates: 120, falls: 30,
            trainer: BoostedTreesTrainer(trees: 1, learningRate: 0.1, maximumDepth: 1, minimumLeafRows: 5, bins: 16, l2: 0.5, bags: 1),
            augmentation: FallAugmentation(scales: []))
        #expect(file.text.hasPrefix("detectord-fall-model 1\nthreshold 0.4\nsubjects SA01 SE02\n"))
        #expect(file.text.contains("\nbags 1\nmodels 1\naugment none\ndetectord-boosted-trees 1\n"))
        let again = try FallModelFile(text: file.text, path: "new.txt")
        #expect(again == file)
        #expect(again.text == file.text)
        #expect(try LearnedFallJudge(modelFile: again).threshold == 0.4)
    }

    @Test func valuesThatCannotBeWrittenAreRefused() throws {
        let trees = BoostedTrees(featureCount: 1, bias: 0, nodes: [.leaf(0)], roots: [0])
        func make(threshold: Float = 0.5, subjects: [String] = ["SA01"], falls: Int = 1) throws(FallDetectError) -> FallModelFile {
            try FallModelFile(
                trees: trees, threshold: threshold, subjects: subjects, candidates: 2, falls: falls, trainer: BoostedTreesTrainer(trees: 1),
                augmentation: FallAugmentation(scales: []))
        }
        #expect(throws: FallDetectError.self) { try make(threshold: 1) }
        #expect(throws: FallDetectError.self) { try make(subjects: ["SA 01"]) }
        #expect(throws: FallDetectError.self) { try make(subjects: []) }
        var error = #expect(throws: FallDetectError.self) { try make(falls: 3) }
        #expect(error?.field == "falls")
        #expect(try make().models == 1)
        // 400 trees a model, and one root: no whole number of models.
        error = #expect(throws: FallDetectError.self) {
            try FallModelFile(
                trees: trees, threshold: 0.5, subjects: ["SA01"], candidates: 2, falls: 1, trainer: BoostedTreesTrainer(),
                augmentation: FallAugmentation(scales: []))
        }
        #expect(error?.field == "models")
        error = #expect(throws: FallDetectError.self) {
            try FallModelFile(
                trees: trees, threshold: 0.5, subjects: ["SA01"], candidates: 2, falls: 1, trainer: BoostedTreesTrainer(trees: 1, bins: 1),
                augmentation: FallAugmentation(scales: []))
        }
        #expect(error?.field == "trainer")
    }

    // MARK: Errors

    @Test func aMalformedHeaderLineIsNamedWithItsField() throws {
        // Line 5 is `falls 2877`.
        var error = Self.error(parsing: try Self.replacing(line: 5, with: "falls many"))
        #expect(error?.line == 5 && error?.field == "falls" && error?.path == "m.txt", "\(String(describing: error))")
        error = Self.error(parsing: try Self.replacing(line: 2, with: "threshold 1.5"))
        #expect(error?.line == 2 && error?.field == "threshold", "\(String(describing: error))")
        error = Self.error(parsing: try Self.replacing(line: 14, with: "augment 0.5,2"))
        #expect(error?.line == 14 && error?.field == "augment", "\(String(describing: error))")
        // Another number of models than the trees hold.
        error = Self.error(parsing: try Self.replacing(line: 13, with: "models 4"))
        #expect(error?.line == 13 && error?.field == "models", "\(String(describing: error))")
        error = Self.error(parsing: try Self.replacing(line: 6, with: "trees 300"))
        #expect(error?.line == 13 && error?.field == "models", "\(String(describing: error))")
        error = Self.error(parsing: try Self.replacing(line: 7, with: "colour blue"))
        #expect(error?.line == 7 && error?.field == "colour", "\(String(describing: error))")
        error = Self.error(parsing: try Self.replacing(line: 7, with: "falls 10"))
        #expect(error?.line == 7 && error?.message.contains("line 5") == true, "\(String(describing: error))")
        // More falls than candidates: the falls line.
        error = Self.error(parsing: try Self.replacing(line: 5, with: "falls 30000"))
        #expect(error?.line == 5 && error?.field == "falls", "\(String(describing: error))")
    }

    /// Named at the line where the trees begin, since the header ended without it.
    @Test func aMissingHeaderKeyIsNamed() throws {
        let error = Self.error(parsing: try Self.removing(line: 10))  // `bins 64`
        #expect(error?.field == "bins" && error?.line == 14, "\(String(describing: error))")
        // Blank lines in the header are nothing missing.
        let padded = try Self.replacing(line: 10, with: "\nbins 64\n")
        #expect(try FallModelFile(text: padded, path: "m.txt") == FallModelFile.shipped())
    }

    @Test func anUnknownVersionIsRefusedClearly() throws {
        var error = Self.error(parsing: try Self.replacing(line: 1, with: "detectord-fall-model 2"))
        #expect(error?.line == 1 && error?.code == .badHeader, "\(String(describing: error))")
        #expect(error?.message.contains("version 2 is not supported") == true, "\(String(describing: error))")
        // A bare trees file, or the old generated Swift: not a model file at all.
        for first in ["detectord-boosted-trees 1", "// Generated by `detectord train` (make train); do not edit by hand."] {
            error = Self.error(parsing: try Self.replacing(line: 1, with: first))
            #expect(error?.line == 1 && error?.message.contains("detectord-fall-model 1") == true, "\(String(describing: error))")
        }
        error = Self.error(parsing: "")
        #expect(error?.line == 1, "\(String(describing: error))")
    }

    @Test func aTruncatedBodyIsNamedWhereItBreaks() throws {
        let lines = try Self.committedText().split(separator: "\n").map(String.init)
        func cut(_ count: Int) -> String { lines.prefix(count).joined(separator: "\n") + "\n" }
        // Cut after a whole leaf inside the trees: a split points past the end of the model.
        var error = Self.error(parsing: cut(1000))
        let line = try #require(error?.line, "\(String(describing: error))")
        #expect(line > 18 && line <= 1000 && lines[line - 1].hasPrefix("split"), "\(line): \(lines[line - 1])")
        // Cut in the middle of a line.
        error = Self.error(parsing: cut(999) + "split 3 82.4")
        #expect(error?.line == 1000, "\(String(describing: error))")
        // Cut after the header's last line, or after the trees' first line.
        error = Self.error(parsing: cut(14))
        #expect(error?.line == 14 && error?.code == .truncated, "\(String(describing: error))")
        error = Self.error(parsing: cut(16))
        #expect(error?.line == 16, "\(String(describing: error))")
    }

    @Test func aMissingFileIsNamed() throws {
        let path = NSTemporaryDirectory() + "fd-no-such-model-\(UUID().uuidString).txt"
        let error = #expect(throws: FallDetectError.self) { try FallModelFile.load(path: path) }
        #expect(error?.path == path && error?.errno == ENOENT, "\(String(describing: error))")
        #expect(error?.description.contains(path) == true)
    }

    @Test func aFileThatIsNotUTF8IsRefused() throws {
        let dir = try SharedData.temporaryDirectory("model")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/model.txt"
        try Data(Array("detectord-fall-model 1\nthreshold 0.5\n".utf8) + [0xff, 0xfe]).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FallDetectError.self) { try FallModelFile.load(path: path) }
        #expect(error?.path == path)
    }

    // MARK: Finding the shipped file

    @Test func theResourceBesideTheExecutableIsSearchedFirst() {
        let paths = FallModelFile.shippedSearchPaths(executable: "/opt/detectord/bin/detectord")
        #expect(
            paths == [
                "/opt/detectord/bin/detectord_FallDetect.resources/fall-model.txt",
                "/opt/detectord/bin/../share/detectord/fall-model.txt", "/usr/local/share/detectord/fall-model.txt",
                "/usr/share/detectord/fall-model.txt",
            ])
        #expect(FallModelFile.shippedSearchPaths(executable: nil) == Array(paths.dropFirst(2)))
    }

    @Test func noShippedFileListsThePathsAndTheSetting() throws {
        let dir = try SharedData.temporaryDirectory("model")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = [dir + "/a/fall-model.txt", dir + "/b/fall-model.txt"]
        let error = #expect(throws: FallDetectError.self) { try FallModelFile.shippedPath(searching: paths) }
        #expect(paths.allSatisfy { error?.message.contains($0) == true }, "\(String(describing: error))")
        #expect(error?.message.contains("[detector] model = PATH") == true)
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: paths[1], contents: Data()))
        #expect(try FallModelFile.shippedPath(searching: paths) == paths[1])
    }
}

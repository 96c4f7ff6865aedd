#if canImport(Glibc)
import Glibc
#endif

/// The learned fall detector's model as a versioned text file (`fall-model.txt`, docs/model-format.md):
/// the operating threshold and how the model was trained, then the trees. `detectord train` writes
/// it; the daemon reads the shipped one, or another chosen by path. Data rather than generated
/// Swift, so a new model needs no rebuild and its provenance can be read by a person or a test.
public struct FallModelFile: Sendable, Hashable {
    public var trees: BoostedTrees
    /// Probability at or above which a candidate is a fall.
    public var threshold: Float
    /// The subjects whose trials the model was trained on.
    public var subjects: [String]
    /// Training rows: the fall candidates of `subjects`, softened copies included.
    public var candidates: Int
    /// Rows labelled fall among `candidates`.
    public var falls: Int
    /// The trainer's settings (trees, depth, learning rate, rows a leaf, bins, L2, bags).
    public var trainer: BoostedTreesTrainer
    /// The softened copies of the falls the model also trained on.
    public var augmentation: FallAugmentation
    /// Models averaged in `trees`: `trainer.bags`, less those whose training share lacked a
    /// fall or a non-fall (`BoostedTreesTrainer.train`).
    public var models: Int { trees.roots.count / max(1, trainer.trees) }

    /// The first line; the number is the format's version.
    static let magic = "detectord-fall-model"
    static let version = 1

    /// Throws `.invalidArgument` naming the field when a value could not be written and read back.
    public init(
        trees: BoostedTrees, threshold: Float, subjects: [String], candidates: Int, falls: Int, trainer: BoostedTreesTrainer,
        augmentation: FallAugmentation
    ) throws(FallDetectError) {
        try FallDetectError.require(threshold.isFinite && threshold > 0 && threshold < 1, "threshold", "must lie in (0, 1), got \(threshold)")
        try FallDetectError.require(
            !subjects.isEmpty && subjects.allSatisfy { !$0.isEmpty && !$0.contains(where: \.isWhitespace) }, "subjects",
            "needs at least one subject, each a name without spaces")
        try FallDetectError.require(candidates > 0 && (0...candidates).contains(falls), "falls", "\(falls) falls of \(candidates) candidates")
        let t = trainer
        try FallDetectError.require(
            (1...5000).contains(t.trees) && (1...8).contains(t.maximumDepth) && t.learningRate > 0 && t.learningRate <= 1
                && t.minimumLeafRows >= 1 && (2...256).contains(t.bins) && t.l2.isFinite && t.l2 >= 0 && (1...20).contains(t.bags),
            "trainer", "settings outside what the format reads (docs/model-format.md): \(t)")
        try FallDetectError.require(
            !trees.roots.isEmpty && trees.roots.count % trainer.trees == 0, "models",
            "the trees hold \(trees.roots.count) roots: not a whole number of models of \(trainer.trees) trees")
        self.trees = trees
        self.threshold = threshold
        self.subjects = subjects
        self.candidates = candidates
        self.falls = falls
        self.trainer = trainer
        self.augmentation = augmentation
    }

    /// The file's text: the header in a fixed order, then `trees.text`. A file `detectord train`
    /// wrote reads back to the same text byte for byte.
    public var text: String {
        let augment = augmentation.scales.isEmpty ? "none" : augmentation.scales.map { "\($0)" }.joined(separator: ",")
        let header = [
            "\(Self.magic) \(Self.version)",
            "threshold \(threshold)",
            "subjects " + subjects.joined(separator: " "),
            "candidates \(candidates)",
            "falls \(falls)",
            "trees \(trainer.trees)",
            "depth \(trainer.maximumDepth)",
            "learning-rate \(trainer.learningRate)",
            "leaf-rows \(trainer.minimumLeafRows)",
            "bins \(trainer.bins)",
            "l2 \(trainer.l2)",
            "bags \(trainer.bags)",
            "models \(models)",
            "augment \(augment)",
        ]
        return header.joined(separator: "\n") + "\n" + trees.text
    }

    /// Reads and parses the file at `path`; errors name it (and the line and field where the text is at fault).
    public static func load(path: String) throws(FallDetectError) -> FallModelFile {
        let bytes = try FileContents.read(path, what: "fall model")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FallDetectError(.malformedRow, "the fall model is not UTF-8 text", path: path)
        }
        return try FallModelFile(text: text, path: path)
    }

    /// Parses a model file: the version line, every header key exactly once (in any order), then
    /// the trees. Errors name `path`, the line and the field.
    public init(text: String, path: String) throws(FallDetectError) {
        var header = FallModelHeader(path: path)
        var lineNumber = 0
        var bodyStart: String.Index?
        var rest = text[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            lineNumber += 1
            if lineNumber == 1 {
                try Self.checkVersion(line, path: path)
            } else if line == BoostedTrees.magic {
                bodyStart = line.startIndex
                break
            } else {
                try header.read(line, lineNumber: lineNumber)
            }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        if lineNumber == 0 { throw FallDetectError(.noData, "the fall model is empty", path: path, line: 1) }
        guard let bodyStart else {
            throw FallDetectError(
                .truncated, "the header ends without the trees ('\(BoostedTrees.magic)' expected)", path: path, line: lineNumber)
        }
        let trees = try BoostedTrees(text: String(text[bodyStart...]), path: path, firstLine: lineNumber)
        self = try header.model(trees: trees, endLine: lineNumber)
    }

    static func checkVersion(_ line: Substring, path: String) throws(FallDetectError) {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Self.magic, let version = Int(parts[1]) else {
            throw FallDetectError(
                .badHeader, "not a detectord fall model: the first line must be '\(Self.magic) \(Self.version)'", path: path, line: 1)
        }
        guard version == Self.version else {
            throw FallDetectError(
                .badHeader, "fall model format version \(version) is not supported (this build reads version \(Self.version))",
                path: path, line: 1, field: "version")
        }
    }

    /// The shipped model, read once per process (`shippedPath()`).
    public static func shipped() throws(FallDetectError) -> FallModelFile { try shippedModel.get() }

    static let shippedModel = Result { () throws(FallDetectError) -> FallModelFile in
        try load(path: shippedPath())
    }

    /// Where the shipped model may be, in order: the SwiftPM resource bundle beside the running
    /// executable (the built binary and the test runner alike), then the installed copies. Not
    /// `Bundle.module`: its accessor stops the process when the bundle is missing.
    public static func shippedSearchPaths(executable: String?) -> [String] {
        var paths: [String] = []
        if let executable, let slash = executable.lastIndex(of: "/") {
            let directory = executable[..<slash]
            paths.append(directory + "/detectord_FallDetect.resources/fall-model.txt")
            // `make install` with any PREFIX: PREFIX/bin/detectord beside PREFIX/share/detectord.
            paths.append(directory + "/../share/detectord/fall-model.txt")
        }
        return paths + ["/usr/local/share/detectord/fall-model.txt", "/usr/share/detectord/fall-model.txt"]
    }

    /// The first of `paths` that exists; otherwise an error listing them all.
    static func shippedPath(searching paths: [String] = shippedSearchPaths(executable: runningExecutable())) throws(FallDetectError) -> String {
        if let found = paths.first(where: { access($0, R_OK) == 0 }) { return found }
        throw FallDetectError(
            .noData,
            "no shipped fall model found; searched " + paths.joined(separator: ", ")
                + ". Install fall-model.txt in one of them, or select a file with `[detector] model = PATH`",
            field: "model")
    }

    static func runningExecutable() -> String? { RunningExecutable.path() }
}

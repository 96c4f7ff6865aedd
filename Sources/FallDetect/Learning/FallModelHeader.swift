/// The `key value` lines between a fall model file's version line and its trees, read one at a
/// time: each value is checked as it is read, so an error names the line it is on.
struct FallModelHeader {
    let path: String
    /// The line each key was read from.
    private(set) var lines: [String: Int] = [:]
    private var threshold: Float?
    private var subjects: [String]?
    private var candidates: Int?
    private var falls: Int?
    private var treeCount: Int?
    private var depth: Int?
    private var learningRate: Float?
    private var leafRows: Int?
    private var bins: Int?
    private var l2: Float?
    private var bags: Int?
    private var models: Int?
    private var augmentation: FallAugmentation?

    /// Every key, in the order `FallModelFile.text` writes them.
    static let keys = [
        "threshold", "subjects", "candidates", "falls", "trees", "depth", "learning-rate", "leaf-rows", "bins", "l2", "bags", "models",
        "augment",
    ]

    init(path: String) { self.path = path }

    /// Reads one line; blank lines are skipped.
    mutating func read(_ line: Substring, lineNumber: Int) throws(FallDetectError) {
        if line.allSatisfy(\.isWhitespace) { return }
        let space = line.firstIndex(of: " ")
        let key = String(line[..<(space ?? line.endIndex)])
        let value = space.map { line[line.index(after: $0)...] } ?? ""
        func bad(_ why: String) -> FallDetectError { FallDetectError(.malformedRow, why, path: path, line: lineNumber, field: key) }
        guard Self.keys.contains(key) else {
            throw FallDetectError(
                .malformedRow, "expected a 'key value' line with one of " + Self.keys.joined(separator: ", ") + ", got '\(line)'",
                path: path, line: lineNumber, field: key.isEmpty ? nil : key)
        }
        if let first = lines[key] { throw bad("given twice (first on line \(first))") }
        guard !value.isEmpty else { throw bad("has no value") }
        func count(_ lowest: Int, _ highest: Int = .max) throws(FallDetectError) -> Int {
            let range = highest == .max ? "of at least \(lowest)" : "in \(lowest)…\(highest)"
            guard let n = Int(value), n >= lowest, n <= highest else { throw bad("takes a whole number \(range), got '\(value)'") }
            return n
        }
        func number(_ accepts: (Float) -> Bool, _ range: String) throws(FallDetectError) -> Float {
            guard let x = Float(value), x.isFinite, accepts(x) else { throw bad("takes a number in \(range), got '\(value)'") }
            return x
        }
        switch key {
        case "threshold": threshold = try number({ $0 > 0 && $0 < 1 }, "(0, 1)")
        case "subjects": subjects = value.split(separator: " ").map(String.init)
        case "candidates": candidates = try count(1)
        case "falls": falls = try count(0)
        case "trees": treeCount = try count(1, 5000)
        case "depth": depth = try count(1, 8)
        case "learning-rate": learningRate = try number({ $0 > 0 && $0 <= 1 }, "(0, 1]")
        case "leaf-rows": leafRows = try count(1)
        case "bins": bins = try count(2, 256)
        case "l2": l2 = try number({ $0 >= 0 }, "[0, ∞)")
        case "bags": bags = try count(1, 20)
        case "models": models = try count(1, 20)
        default:
            var scales: [Float] = []
            if value != "none" {
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let scale = Float(part) else { throw bad("takes none or comma-separated numbers in (0, 1), got '\(value)'") }
                    scales.append(scale)
                }
            }
            do { augmentation = try FallAugmentation(scales: scales) } catch { throw bad(error.message) }
        }
        lines[key] = lineNumber
    }

    /// The model file, once every key has been read; errors name the first missing key, or the
    /// line of a value that contradicts another (more falls than candidates, another number of
    /// models than the trees hold).
    func model(trees: BoostedTrees, endLine: Int) throws(FallDetectError) -> FallModelFile {
        guard let threshold, let subjects, let candidates, let falls, let depth,
            let treeCount, let learningRate, let leafRows, let bins, let l2, let bags, let models,
            let augmentation
        else {
            let missing = Self.keys.first { lines[$0] == nil } ?? ""
            throw FallDetectError(
                .malformedRow, "the header lacks its '\(missing)' line before the trees", path: path, line: endLine, field: missing)
        }
        let trainer = BoostedTreesTrainer(
            trees: treeCount, learningRate: learningRate, maximumDepth: depth, minimumLeafRows: leafRows, bins: bins, l2: l2, bags: bags)
        let file: FallModelFile
        do {
            file = try FallModelFile(
                trees: trees, threshold: threshold, subjects: subjects, candidates: candidates, falls: falls, trainer: trainer,
                augmentation: augmentation)
        } catch {
            throw FallDetectError(error.code, error.message, path: path, line: error.field.flatMap { lines[$0] }, field: error.field)
        }
        guard file.models == models else {
            throw FallDetectError(
                .malformedRow, "says \(models) models of \(treeCount) trees, but the trees hold \(file.models)", path: path,
                line: lines["models"], field: "models")
        }
        return file
    }
}

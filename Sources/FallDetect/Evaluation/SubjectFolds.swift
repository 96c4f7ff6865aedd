/// Cross-validation folds by subject: every trial of a subject lands in the same fold, so a
/// detector is always tested on people its threshold never saw.
///
/// Assignment is deterministic: subjects sorted by code (young SA01… before elderly SE01…, numbers
/// zero-padded so text order is numeric order) are dealt round-robin, the i-th to fold i mod K.
/// Dealing young subjects first spreads those who fell over every fold whenever there are at least
/// K of them, which keeps falls and ADL in every fold. A nonzero `seed` shuffles the young and the
/// older subjects apart (Fisher–Yates over `SplitMix64(seed)`) before dealing, so the same data
/// can be cut into other folds: repeated cross-validation, to see how much a figure owes to one cut.
public struct SubjectFolds: Sendable, Hashable {
    public let count: Int
    /// Subjects in dealing order.
    public let subjects: [String]
    let foldBySubject: [String: Int]

    /// Throws `.invalidArgument` unless 2 ≤ count ≤ number of distinct subjects.
    public init(subjects: some Sequence<String>, count: Int, seed: UInt64 = 0) throws(FallDetectError) {
        var sorted = Set(subjects).sorted()
        if seed != 0 {
            var rng = SplitMix64(seed: seed)
            let older = sorted.filter { $0.hasPrefix("SE") }
            sorted = Self.shuffled(sorted.filter { !$0.hasPrefix("SE") }, &rng) + Self.shuffled(older, &rng)
        }
        guard count >= 2 else {
            throw FallDetectError(.invalidArgument, "cross-validation needs at least 2 folds, got \(count)", field: "folds")
        }
        guard count <= sorted.count else {
            throw FallDetectError(
                .invalidArgument, "\(count) folds by subject need at least \(count) subjects; the data holds \(sorted.count)",
                field: "folds")
        }
        self.count = count
        self.subjects = sorted
        foldBySubject = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0 % count) })
    }

    /// Fisher–Yates with our own generator and arithmetic, so a seed cuts the same folds on every
    /// platform and Swift version.
    static func shuffled(_ items: [String], _ rng: inout SplitMix64) -> [String] {
        var items = items
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        return items
    }

    /// The fold (0..<count) of a subject, nil for one not given at `init`.
    public func fold(of subject: String) -> Int? { foldBySubject[subject] }

    /// The subjects of one fold, in dealing order.
    public func members(of fold: Int) -> [String] { subjects.filter { foldBySubject[$0] == fold } }
}

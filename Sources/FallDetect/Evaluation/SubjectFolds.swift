/// Cross-validation folds by subject: every trial of a subject lands in the same fold, so a
/// detector is always tested on people its threshold never saw.
///
/// Assignment is deterministic and needs no random seed: subjects sorted by code (young SA01…
/// before elderly SE01…, numbers zero-padded so text order is numeric order) are dealt round-robin,
/// the i-th to fold i mod K. Dealing young subjects first spreads those who fell over every fold
/// whenever there are at least K of them, which keeps falls and ADL in every fold.
public struct SubjectFolds: Sendable, Hashable {
    public let count: Int
    /// Subjects in dealing order.
    public let subjects: [String]
    let foldBySubject: [String: Int]

    /// Throws `.invalidArgument` unless 2 ≤ count ≤ number of distinct subjects.
    public init(subjects: some Sequence<String>, count: Int) throws(FallDetectError) {
        let sorted = Set(subjects).sorted()
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

    /// The fold (0..<count) of a subject, nil for one not given at `init`.
    public func fold(of subject: String) -> Int? { foldBySubject[subject] }

    /// The subjects of one fold, in dealing order.
    public func members(of fold: Int) -> [String] { subjects.filter { foldBySubject[$0] == fold } }
}

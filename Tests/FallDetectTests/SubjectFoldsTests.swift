import Testing

@testable import FallDetect

@Suite struct SubjectFoldsTests {
    /// Sorted by code (young first) and dealt round-robin, whatever order the subjects come in.
    @Test func dealtRoundRobinInCodeOrder() throws {
        let folds = try SubjectFolds(subjects: ["SE02", "SA03", "SA01", "SE01", "SA02", "SA01"], count: 2)
        #expect(folds.subjects == ["SA01", "SA02", "SA03", "SE01", "SE02"])
        #expect(folds.members(of: 0) == ["SA01", "SA03", "SE02"])
        #expect(folds.members(of: 1) == ["SA02", "SE01"])
        #expect(folds.fold(of: "SA09") == nil)
    }

    @Test func deterministic() throws {
        let subjects = (1...18).map { "SA\($0 < 10 ? "0" : "")\($0)" } + ["SE01", "SE02", "SE03", "SE05", "SE07", "SE08", "SE09", "SE10"]
        let a = try SubjectFolds(subjects: subjects, count: 10)
        let b = try SubjectFolds(subjects: subjects.reversed(), count: 10)
        #expect(a == b)
        // Every fold gets at least one young subject, who are the ones that fell.
        for k in 0..<10 { #expect(a.members(of: k).contains { $0.hasPrefix("SA") }) }
        #expect(a.members(of: 0) == ["SA01", "SA11", "SE03"])
    }

    /// A seed cuts other folds from the same subjects: every subject still in exactly one fold, the
    /// young still dealt first (one or two per fold here), the same cut for the same seed whatever
    /// order the subjects come in, and another cut for another seed.
    @Test func aSeedShufflesYoungAndOlderApartBeforeDealing() throws {
        let subjects = (1...18).map { "SA\($0 < 10 ? "0" : "")\($0)" } + ["SE01", "SE02", "SE03", "SE05", "SE07", "SE08", "SE09", "SE10"]
        let plain = try SubjectFolds(subjects: subjects, count: 10)
        #expect(try SubjectFolds(subjects: subjects, count: 10, seed: 0) == plain)
        let cut = try SubjectFolds(subjects: subjects, count: 10, seed: 7)
        #expect(try SubjectFolds(subjects: subjects.reversed(), count: 10, seed: 7) == cut)
        #expect(cut != plain)
        #expect(try SubjectFolds(subjects: subjects, count: 10, seed: 8) != cut)
        #expect(Set(cut.subjects) == Set(subjects) && cut.subjects.count == subjects.count)
        #expect(cut.subjects.prefix(18).allSatisfy { $0.hasPrefix("SA") })
        for k in 0..<10 {
            let young = cut.members(of: k).filter { $0.hasPrefix("SA") }.count
            #expect(young == 1 || young == 2, "fold \(k): \(cut.members(of: k))")
        }
        let sizes = (0..<10).map { cut.members(of: $0).count }
        #expect(sizes.reduce(0, +) == subjects.count && sizes.max()! - sizes.min()! <= 1)
    }

    @Test func needsAsManySubjectsAsFolds() {
        #expect(throws: FallDetectError.self) { try SubjectFolds(subjects: ["SA01", "SA02"], count: 3) }
        #expect(throws: FallDetectError.self) { try SubjectFolds(subjects: ["SA01", "SA02"], count: 1) }
    }
}

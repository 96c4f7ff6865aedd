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

    @Test func needsAsManySubjectsAsFolds() {
        #expect(throws: FallDetectError.self) { try SubjectFolds(subjects: ["SA01", "SA02"], count: 3) }
        #expect(throws: FallDetectError.self) { try SubjectFolds(subjects: ["SA01", "SA02"], count: 1) }
    }
}

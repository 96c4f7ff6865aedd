import Testing

@testable import FallDetect

@Suite struct FallCandidateSettingsTests {
    @Test func defaultsAreValid() throws {
        try FallCandidateSettings().validate()
        try FallCandidateSettings(sampleRate: 100).validate()
    }

    /// One bad value at a time, each named by the field it is in.
    static let badSettings: [(String, @Sendable (inout FallCandidateSettings) -> Void)] = [
        ("sampleRate", { $0.sampleRate = 9.9 }),
        ("sampleRate", { $0.sampleRate = 10_001 }),
        ("sampleRate", { $0.sampleRate = .nan }),
        ("impactThreshold", { $0.impactThreshold = 1 }),
        ("impactThreshold", { $0.impactThreshold = .infinity }),
        ("postureDelay", { $0.postureDelay = -0.01 }),
        ("postureDelay", { $0.postureDelay = .nan }),
        ("decisionDelay", { $0.decisionDelay = $0.postureDelay }),
        ("decisionDelay", { $0.decisionDelay = 10.01 }),
        ("decisionDelay", { $0.decisionDelay = .nan }),
        ("freeFallThreshold", { $0.freeFallThreshold = 0 }),
        ("freeFallThreshold", { $0.freeFallThreshold = 1 }),
        ("freeFallThreshold", { $0.freeFallThreshold = -0.5 }),
    ]

    @Test(arguments: 0..<badSettings.count)
    func validateNamesTheBadField(_ k: Int) {
        let (field, change) = Self.badSettings[k]
        var s = FallCandidateSettings()
        change(&s)
        do {
            try s.validate()
            Issue.record("\(field) case \(k) passed validation: \(s)")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == field, "case \(k): \(error)")
        }
    }

    @Test func boundaryValuesPass() throws {
        var s = FallCandidateSettings()
        s.sampleRate = 10
        s.impactThreshold = Float(1).nextUp
        s.postureDelay = 0
        s.decisionDelay = 10
        s.freeFallThreshold = Float(1).nextDown
        try s.validate()
        s.sampleRate = 10_000
        try s.validate()
    }
}

import Testing

@testable import FallDetect

@Suite struct MultiphaseFallParametersTests {
    @Test func defaultsAreValid() throws {
        try MultiphaseFallParameters().validate()
    }

    static let bad: [(String, @Sendable (inout MultiphaseFallParameters) -> Void)] = [
        ("maximumFallingAcceleration", { $0.maximumFallingAcceleration = 0 }),
        ("maximumFallingAcceleration", { $0.maximumFallingAcceleration = Float(1).nextUp }),
        ("maximumFallingAcceleration", { $0.maximumFallingAcceleration = .nan }),
        ("minimumImpact", { $0.minimumImpact = 1 }),
        ("minimumImpact", { $0.minimumImpact = .infinity }),
        ("lyingTilt", { $0.lyingTilt = 0 }),
        ("lyingTilt", { $0.lyingTilt = 180 }),
        ("minimumTiltChange", { $0.minimumTiltChange = -180 }),
        ("minimumTiltChange", { $0.minimumTiltChange = 180 }),
        ("minimumTiltChange", { $0.minimumTiltChange = .nan }),
    ]

    @Test(arguments: 0..<bad.count)
    func validateNamesTheBadField(_ k: Int) {
        let (field, change) = Self.bad[k]
        var p = MultiphaseFallParameters()
        change(&p)
        do {
            try p.validate()
            Issue.record("case \(k) (\(field)) passed validation")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == field, "case \(k): \(error)")
        }
        // The judge refuses the same parameters.
        #expect(throws: FallDetectError.self) { try MultiphaseFallJudge(parameters: p) }
    }

    @Test func boundaryValuesPass() throws {
        try MultiphaseFallParameters(maximumFallingAcceleration: 1, minimumImpact: Float(1).nextUp, lyingTilt: 179.9, minimumTiltChange: -179.9)
            .validate()
    }
}

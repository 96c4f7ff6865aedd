import Testing

@testable import FallDetect

@Suite struct RecoveryParametersTests {
    @Test(arguments: [
        (RecoveryParameters(uprightSeconds: 0), "uprightSeconds"),
        (RecoveryParameters(uprightSeconds: .nan), "uprightSeconds"),
        (RecoveryParameters(windowSeconds: 1, uprightSeconds: 2), "windowSeconds"),
        (RecoveryParameters(uprightTilt: 0), "uprightTilt"),
        (RecoveryParameters(uprightTilt: 90), "uprightTilt"),
    ])
    func badValuesNameTheirField(_ parameters: RecoveryParameters, _ field: String) {
        do {
            try parameters.validate()
            Issue.record("\(parameters) accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == field)
        }
        #expect(throws: FallDetectError.self) { _ = try RecoveryWatch(detectionNanoseconds: 0, parameters: parameters) }
    }

    @Test func theDefaultsAreValidAndOnTheBenchGrid() throws {
        try RecoveryParameters().validate()
        for p in RecoveryParameters.grid { try p.validate() }
        #expect(RecoveryParameters.grid.contains(RecoveryParameters()), "the bench evaluates the shipped setting from the grid")
        #expect(Set(RecoveryParameters.grid).count == RecoveryParameters.grid.count)
    }
}

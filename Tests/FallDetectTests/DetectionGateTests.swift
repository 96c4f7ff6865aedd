import Testing

@testable import FallDetect

@Suite struct DetectionGateTests {
    static let s: Int64 = 1_000_000_000

    /// What the gate answers to each timestamp in turn.
    static func answers(_ gate: inout DetectionGate, _ times: [Int64]) -> [Bool] {
        times.map { gate.admit($0) }
    }

    @Test func admitsOnePerRefractoryPeriodCountedFromTheLastAdmitted() {
        var gate = DetectionGate(refractorySeconds: 30)
        let times = [100 * Self.s, 100 * Self.s, 129 * Self.s, 130 * Self.s - 1, 130 * Self.s, 159 * Self.s, 161 * Self.s]
        // Refused detections do not extend the period: 130 s opens it whatever came at 129 s.
        #expect(Self.answers(&gate, times) == [true, false, false, false, true, false, true])
    }

    @Test func defaultIsThirtySeconds() {
        var gate = DetectionGate()
        #expect(gate.refractorySeconds == 30)
        #expect(Self.answers(&gate, [0, 30 * Self.s - 1, 30 * Self.s]) == [true, false, true])
    }

    @Test func resetReopensTheGate() {
        var gate = DetectionGate(refractorySeconds: 30)
        let before = Self.answers(&gate, [5 * Self.s])
        gate.reset()
        #expect(before + Self.answers(&gate, [6 * Self.s, 7 * Self.s]) == [true, true, false])
    }

    @Test func zeroRefractoryAdmitsEverything() {
        var gate = DetectionGate(refractorySeconds: 0)
        #expect(Self.answers(&gate, [1, 1, 2, 3]) == [true, true, true, true])
    }
}

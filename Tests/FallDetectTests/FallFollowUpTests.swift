import Foundation
import Testing

@testable import FallDetect

@Suite struct FallFollowUpTests {
    static let fall = DetectionEvent(kind: .fall, detector: "test", confidence: 1, timestampNanoseconds: 1_000_000_000)

    /// Frames at 100 Hz from 0 to `seconds`, tilted by `tilt(t)`: still while the trunk is
    /// tilted past 45°, walking about (|a| swinging, turning at 60 °/s) while it is upright; the
    /// detection starts at 1 s.
    static func outcomes(
        _ followUp: FallFollowUp, start event: DetectionEvent = fall, seconds: Double = 20, _ tilt: (Double) -> Float
    ) -> [FollowUpOutcome] {
        var followUp = followUp
        var outcomes: [FollowUpOutcome] = []
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            let upright = tilt(t) < 45
            let swing = upright ? Float(0.3 * sin(t * 12)) : 0
            let frame = MotionFrame(
                timestampNanoseconds: Int64((t * 1e9).rounded()), samplePeriod: 0.01, acceleration: SIMD3(0, 0, 1 + swing),
                angularRateMagnitude: upright ? 60 : 2, tiltDegrees: tilt(t), verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
            followUp.push(frame, into: &outcomes)
            if i == 100 { followUp.start(event) }
        }
        return outcomes
    }

    static func both() throws -> FallFollowUp {
        try FallFollowUp(confirmation: StillnessParameters(stillSeconds: 3, windowSeconds: 15), recovery: RecoveryParameters())
    }

    @Test func lyingStillIsConfirmedAndStaysDown() throws {
        let outcomes = Self.outcomes(try Self.both()) { _ in 85 }
        #expect(outcomes.map(\.kind) == [.confirmed, .stayedDown])
        #expect(outcomes.allSatisfy { $0.event.timestampNanoseconds == Self.fall.timestampNanoseconds })
        #expect(outcomes[0].event.evidence.stillSeconds != nil, "the confirmed event carries its seconds of stillness")
        #expect(abs(Double(outcomes[1].timestampNanoseconds) / 1e9 - 11) < 0.02, "the recovery window ends 10 s after the detection")
        #expect(outcomes[1].summary() == "stayed down: the fall at 1.0 s, not up again; the alert stands")
    }

    @Test func sittingUpSoonIsARecovery() throws {
        // Up and walking 2 s after the detection, before 3 s of stillness: both stages see it.
        let outcomes = Self.outcomes(try Self.both()) { t in t < 3 ? 85 : 15 }
        // The recovery check wants 2 s upright, the stillness stage 3 s.
        #expect(outcomes.map(\.kind) == [.recovered, .gotUp], "\(outcomes.map(\.kind))")
        #expect(abs(Double(outcomes[0].timestampNanoseconds) / 1e9 - 5) < 0.02)
        #expect(outcomes[0].summary(origin: 1_000_000_000).hasPrefix("recovered: the fall at 0.0 s, sitting or standing again"))
    }

    /// Sat up just before the samples broke off for 3 s: the first frame back still reads upright
    /// (the attitude lags), and judged on the frames before the break that was 3.5 s upright, a
    /// recovery that withdrew the alert. The stages end without an outcome instead.
    @Test func aBreakInTheSamplesEndsTheStagesWithoutAnOutcome() throws {
        var followUp = try Self.both()
        var outcomes: [FollowUpOutcome] = []
        func push(_ t: Double, tilt: Float, afterGap: Bool = false) {
            let frame = MotionFrame(
                timestampNanoseconds: Int64((t * 1e9).rounded()), samplePeriod: 0.01, acceleration: SIMD3(0, 0, 1),
                angularRateMagnitude: tilt < 45 ? 60 : 2, tiltDegrees: tilt, verticalAcceleration: 0, verticalVelocity: 0, saturated: false,
                afterGap: afterGap)
            followUp.push(frame, into: &outcomes)
        }
        for i in 0...100 { push(Double(i) / 100, tilt: 85) }
        followUp.start(Self.fall)
        for i in 101..<300 { push(Double(i) / 100, tilt: i < 250 ? 85 : 15) }
        push(6, tilt: 15, afterGap: true)
        for i in 601..<2000 { push(Double(i) / 100, tilt: 85) }
        #expect(outcomes.isEmpty, "\(outcomes.map(\.kind))")
    }

    /// A fall's outcomes reach the workflow; a drop from height's do not: it needs help whatever
    /// follows, so being up again must not withdraw it.
    @Test func onlyAFallsOutcomesBecomeWorkflowInputs() throws {
        let fall = Self.outcomes(try Self.both()) { t in t < 3 ? 85 : 15 }
        #expect(fall.map(\.workflowInput) == [.followUp(.recovered), .followUp(.gotUp)])
        let drop = DetectionEvent(kind: .freeFall, detector: "test", confidence: 1, timestampNanoseconds: 1_000_000_000)
        let dropped = Self.outcomes(try Self.both(), start: drop) { t in t < 3 ? 85 : 15 }
        #expect(dropped.map(\.kind) == [.recovered, .gotUp])
        #expect(dropped.allSatisfy { $0.workflowInput == nil })
    }

    @Test func onlyTheStagesAskedForRun() throws {
        let recoveryOnly = try FallFollowUp(confirmation: nil, recovery: RecoveryParameters())
        #expect(Self.outcomes(recoveryOnly) { _ in 85 }.map(\.kind) == [.stayedDown])
        let none = try FallFollowUp(confirmation: nil, recovery: nil)
        #expect(Self.outcomes(none) { _ in 85 }.isEmpty)
    }

    @Test func crashesAreNotFollowed() throws {
        let crash = DetectionEvent(kind: .crash, detector: "crash", confidence: 1, timestampNanoseconds: 1_000_000_000)
        #expect(Self.outcomes(try Self.both(), start: crash) { _ in 85 }.isEmpty)
        let drop = DetectionEvent(kind: .freeFall, detector: "free-fall", confidence: 1, timestampNanoseconds: 1_000_000_000)
        #expect(!Self.outcomes(try Self.both(), start: drop) { _ in 85 }.isEmpty)
    }

    @Test func badStageParametersAreNamed() {
        #expect { try FallFollowUp(confirmation: nil, recovery: RecoveryParameters(uprightTilt: 95)) } throws: {
            ($0 as? FallDetectError)?.field == "uprightTilt"
        }
        #expect { try FallFollowUp(confirmation: StillnessParameters(stillSeconds: -1), recovery: nil) } throws: {
            ($0 as? FallDetectError)?.field == "stillSeconds"
        }
    }
}

import Foundation
import Testing

@testable import FallDetect

@Suite struct StillnessConfirmationTests {
    static let event = DetectionEvent(kind: .fall, detector: "test", confidence: 1, timestampNanoseconds: 1_000_000_000)

    /// Feeds frames at 100 Hz from t = 1 s on, `make` giving |a|, |ω| and tilt per second.
    static func outcome(
        seconds: Double, parameters: StillnessParameters = StillnessParameters(stillSeconds: 2, windowSeconds: 5),
        _ make: (Double) -> (Float, Float, Float)
    ) throws -> StillnessConfirmation.Outcome? {
        var stage = try StillnessConfirmation(event: event, parameters: parameters)
        for i in 0..<Int(seconds * 100) {
            let t = 1 + Double(i) / 100
            let (m, w, tilt) = make(t)
            let frame = MotionFrame(
                timestampNanoseconds: Int64((t * 1e9).rounded()), samplePeriod: 0.01, acceleration: SIMD3(m, 0, 0), angularRateMagnitude: w,
                tiltDegrees: tilt, verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
            if let outcome = stage.push(frame) { return outcome }
        }
        return nil
    }

    @Test func lyingStillConfirmsWithTheRestingPhase() throws {
        let outcome = try Self.outcome(seconds: 10) { _ in (1, 2, 90) }
        guard case .confirmed(let e)? = outcome else {
            Issue.record("expected confirmed, got \(String(describing: outcome))")
            return
        }
        #expect(e.phase(.resting) == Self.event.timestampNanoseconds)
        #expect(abs((e.evidence.stillSeconds ?? 0) - 2) < 0.02)
    }

    @Test func gettingUpCancels() throws {
        // Moving about while upright: never still, upright from the start.
        let outcome = try Self.outcome(seconds: 10) { t in (1 + 0.4 * Float(sin(t * 12)), 80, 10) }
        guard case .gotUp? = outcome else {
            Issue.record("expected gotUp, got \(String(describing: outcome))")
            return
        }
    }

    @Test func movingWithoutGettingUpTimesOut() throws {
        let outcome = try Self.outcome(seconds: 10) { t in (1 + 0.4 * Float(sin(t * 12)), 80, 85) }
        guard case .timedOut? = outcome else {
            Issue.record("expected timedOut, got \(String(describing: outcome))")
            return
        }
        // Still but only for 1.5 s at a time never adds up to 2 s.
        let broken = try Self.outcome(seconds: 10) { t in (1, t.truncatingRemainder(dividingBy: 1.5) < 0.05 ? 100 : 2, 85) }
        guard case .timedOut? = broken else {
            Issue.record("expected timedOut, got \(String(describing: broken))")
            return
        }
    }

    @Test func parametersAreValidated() {
        #expect { try StillnessConfirmation(event: Self.event, parameters: StillnessParameters(stillSeconds: 20, windowSeconds: 10)) } throws: {
            ($0 as? FallDetectError)?.field == "windowSeconds"
        }
        #expect { try StillnessConfirmation(event: Self.event, parameters: StillnessParameters(uprightTilt: 95)) } throws: {
            ($0 as? FallDetectError)?.field == "uprightTilt"
        }
    }
}

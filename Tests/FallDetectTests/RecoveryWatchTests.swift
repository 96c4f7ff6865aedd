import Foundation
import Testing

@testable import FallDetect

@Suite struct RecoveryWatchTests {
    static let detection: Int64 = 1_000_000_000

    /// Feeds frames at 100 Hz from t = 0 on (the detection is at 1 s), `tilt` giving the trunk
    /// tilt per second; returns the outcome and when it came.
    static func outcome(
        seconds: Double, parameters: RecoveryParameters = RecoveryParameters(), _ tilt: (Double) -> Float
    ) throws -> (outcome: RecoveryWatch.Outcome, at: Double)? {
        var watch = try RecoveryWatch(detectionNanoseconds: detection, parameters: parameters)
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            let frame = MotionFrame(
                timestampNanoseconds: Int64((t * 1e9).rounded()), samplePeriod: 0.01, acceleration: SIMD3(0, 0, 1), angularRateMagnitude: 5,
                tiltDegrees: tilt(t), verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
            if let outcome = watch.push(frame) { return (outcome, t) }
        }
        return nil
    }

    @Test func sittingUpAgainWithdrawsTheDetection() throws {
        // Lying until 4 s, then sitting at 20° from vertical.
        let result = try Self.outcome(seconds: 15) { t in t < 4 ? 85 : 20 }
        #expect(result?.outcome == .recovered(since: 4_000_000_000))
        #expect(abs((result?.at ?? 0) - 6) < 0.015, "upright for uprightSeconds (2 s) from 4 s")
    }

    @Test func stayingDownLetsTheAlertStandAtTheEndOfTheWindow() throws {
        let result = try Self.outcome(seconds: 15) { _ in 80 }
        #expect(result?.outcome == .stayedDown)
        #expect(abs((result?.at ?? 0) - 11) < 0.015, "window of 10 s from the detection at 1 s")
    }

    @Test func briefMomentsUprightDoNotCount() throws {
        // Propped up at 20° for 1.5 s out of every 3 s: never the 2 s in a row that mean recovery.
        let result = try Self.outcome(seconds: 15) { t in t.truncatingRemainder(dividingBy: 3) < 1.5 ? 20 : 70 }
        #expect(result?.outcome == .stayedDown)
    }

    @Test func tiltBeforeTheDetectionIsIgnored() throws {
        // Upright until the detection, then lying: the walk before the fall is not a recovery.
        let result = try Self.outcome(seconds: 15) { t in t <= 1 ? 5 : 88 }
        #expect(result?.outcome == .stayedDown)
    }

    @Test func gettingUpAfterTheWindowIsTooLate() throws {
        let result = try Self.outcome(seconds: 15) { t in t < 10 ? 85 : 10 }
        #expect(result?.outcome == .stayedDown)
        #expect(abs((result?.at ?? 0) - 11) < 0.015)
    }

    @Test func theUprightBoundIsAParameter() throws {
        // Sitting up at 40°: upright under a 45° bound, still down under the default 30°.
        let loose = try Self.outcome(seconds: 15, parameters: RecoveryParameters(uprightTilt: 45)) { t in t < 3 ? 85 : 40 }
        #expect(loose?.outcome == .recovered(since: 3_000_000_000))
        let strict = try Self.outcome(seconds: 15) { t in t < 3 ? 85 : 40 }
        #expect(strict?.outcome == .stayedDown)
    }

    @Test func oneOutcomeOnly() throws {
        var watch = try RecoveryWatch(detectionNanoseconds: Self.detection, parameters: RecoveryParameters(windowSeconds: 2, uprightSeconds: 1))
        var outcomes = 0
        for i in 0..<600 {
            let frame = MotionFrame(
                timestampNanoseconds: Int64(i) * 10_000_000, samplePeriod: 0.01, acceleration: SIMD3(0, 0, 1), angularRateMagnitude: 0,
                tiltDegrees: 90, verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
            if watch.push(frame) != nil { outcomes += 1 }
        }
        #expect(outcomes == 1)
    }
}

import Foundation
import Testing

@testable import FallDetect

/// When a gyroscope's readings are turns no body makes, and when it is believed again.
@Suite struct GyroscopeGuardTests {
    /// Pushes `seconds` of |ω| given by `rate(t)` at 200 Hz; returns the suspect flag per sample.
    static func run(_ guardian: inout GyroscopeGuard, seconds: Float, from start: Float = 0, rate: (Float) -> Float) -> [Bool] {
        let period: Float = 0.005
        return (0..<Int(seconds / period)).map { i in
            guardian.push(angularRate: rate(start + Float(i) * period), samplePeriod: period)
        }
    }

    /// A fall's burst (450 °/s for half a second) and a jogger's swing (300 °/s on average) are
    /// turns a body makes.
    @Test func fastHealthyTurnsAreBelieved() {
        var guardian = GyroscopeGuard()
        let fall = Self.run(&guardian, seconds: 5) { t in t > 2 && t < 2.5 ? 450 : 20 }
        let jog = Self.run(&guardian, seconds: 30, from: 5) { t in 300 * (1 + sin(2 * .pi * 3 * t)) }
        #expect(!fall.contains(true) && !jog.contains(true))
        #expect(guardian.episodes == 0)
        #expect(guardian.meanRate > 250 && guardian.meanRate < 350)
    }

    /// A second averaging 700 °/s makes it suspect; it stays so while the mean swings between 300
    /// and 700 °/s, and is believed again 2 s after the mean fell under 250 °/s.
    @Test func aSustainedImplausibleRateIsSuspectUntilItCalmsDown() throws {
        var guardian = GyroscopeGuard()
        let quiet = Self.run(&guardian, seconds: 2) { _ in 30 }
        let faulty = Self.run(&guardian, seconds: 6, from: 2) { _ in 800 }
        #expect(!quiet.contains(true))
        // The 1 s mean passes 500 °/s about 1 s in (800·(1 − e^−t) = 500 at t ≈ 0.98 s).
        let onset = try #require(faulty.firstIndex(of: true))
        #expect(abs(Float(onset) * 0.005 - 0.98) < 0.05, "suspect after \(Float(onset) * 0.005) s")
        #expect(faulty[onset...].allSatisfy { $0 })
        // Swinging: under 500 but over 250 keeps it suspect.
        let swinging = Self.run(&guardian, seconds: 10, from: 8) { t in 450 + 150 * sin(2 * .pi * 0.5 * t) }
        #expect(swinging.allSatisfy { $0 })
        let calm = Self.run(&guardian, seconds: 6, from: 18) { _ in 20 }
        let back = try #require(calm.firstIndex(of: false))
        // The mean falls from ~450 to 250 in ~0.6 s, then 2 s of hold.
        #expect(Float(back) * 0.005 > 2.3 && Float(back) * 0.005 < 3.2, "believed again after \(Float(back) * 0.005) s")
        #expect(guardian.episodes == 1)
        _ = Self.run(&guardian, seconds: 3, from: 24) { _ in 900 }
        #expect(guardian.episodes == 2)
    }
}

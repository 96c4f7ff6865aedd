import Testing

@testable import FallDetect

/// The still reading is learned while still, in each posture, and frozen while the body moves.
@Suite struct StationaryBiasEstimatorTests {
    static let period: Float = 0.01

    /// Pushes `seconds` of one reading; returns the last bias.
    @discardableResult
    static func hold(
        _ estimator: inout StationaryBiasEstimator, vertical: Float, magnitude: Float, rate: Float = 0, seconds: Float
    ) -> Float {
        var bias = estimator.bias
        for _ in 0..<Int((seconds / period).rounded()) {
            bias = estimator.push(verticalAcceleration: vertical, accelerationMagnitude: magnitude, angularRate: rate, samplePeriod: period)
        }
        return bias
    }

    @Test func aStillReadingIsLearnedAfterTheHoldTime() {
        var e = StationaryBiasEstimator()
        // Before the hold time has passed nothing is learned.
        #expect(Self.hold(&e, vertical: -0.17, magnitude: 0.83, seconds: 0.2) == 0)
        #expect(!e.isStationary)
        Self.hold(&e, vertical: -0.17, magnitude: 0.83, seconds: 5)
        #expect(e.isStationary)
        #expect(abs(e.bias + 0.17) < 0.002, "\(e.bias) g")
    }

    @Test func turningOrAChangingMagnitudeFreezesTheBias() {
        var e = StationaryBiasEstimator()
        Self.hold(&e, vertical: -0.1, magnitude: 0.9, seconds: 5)
        let learned = e.bias
        // Rotating at 100 °/s: not still, whatever the accelerometer reads.
        Self.hold(&e, vertical: 0.3, magnitude: 0.9, rate: 100, seconds: 2)
        #expect(!e.isStationary && e.bias == learned)
        // A free fall: |a| leaves its mean at once.
        var f = StationaryBiasEstimator()
        Self.hold(&f, vertical: -0.1, magnitude: 0.9, seconds: 5)
        let before = f.bias
        let bias = f.push(verticalAcceleration: -1, accelerationMagnitude: 0.05, angularRate: 0, samplePeriod: Self.period)
        #expect(bias == before && !f.isStationary)
    }

    @Test func aNewPostureIsLearnedAgain() {
        var e = StationaryBiasEstimator()
        Self.hold(&e, vertical: -0.17, magnitude: 0.83, seconds: 5)
        Self.hold(&e, vertical: 0.2, magnitude: 0.9, rate: 150, seconds: 0.5)
        Self.hold(&e, vertical: -0.08, magnitude: 0.92, seconds: 5)
        #expect(abs(e.bias + 0.08) < 0.002, "\(e.bias) g")
    }

    /// Through the frame builder: a unit that reads 0.83 g lying on its back (as SisFall's SE01
    /// does) would settle at −1.6 m/s through the leaky integrator; learned, it stays near 0.
    @Test func aMiscalibratedStillSensorReadsNoVerticalVelocity() throws {
        var builder = MotionFrameBuilder(sampleRate: 100)
        var frame: MotionFrame?
        for i in 0..<1000 {
            frame = builder.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0.83, 0, 0)))
        }
        let f = try #require(frame)
        #expect(f.tiltDegrees > 85)
        #expect(abs(f.verticalVelocity) < 0.05, "\(f.verticalVelocity) m/s")
        #expect(abs(f.verticalAcceleration) < 0.005, "\(f.verticalAcceleration) g")
    }
}

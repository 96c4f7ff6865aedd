import Foundation
import Testing

@testable import FallDetect

/// Frames from IMU samples: the saturation flag, tilt from the AHRS, and the sample period.
@Suite struct MotionFrameBuilderTests {
    static func sample(_ i: Int, _ a: SIMD3<Float>, g: SIMD3<Float> = .zero, period: Int64 = 10_000_000) -> IMUSample {
        IMUSample(timestampNanoseconds: Int64(i) * period, acceleration: a, angularRate: g)
    }

    @Test(arguments: [Float(16), 8, 2])
    func saturationIsFlaggedFromNinetyEightPercentOfFullScaleOnAnyAxis(_ range: Float) {
        let limit = range * 0.98
        var builder = MotionFrameBuilder(sampleRate: 100, accelerometerRange: range)
        // Each axis in each direction, at the limit and one step under it.
        var i = 0
        for axis in 0..<3 {
            for sign: Float in [1, -1] {
                var at = SIMD3<Float>.zero
                at[axis] = sign * limit
                var under = SIMD3<Float>.zero
                under[axis] = sign * limit.nextDown
                i += 1
                #expect(builder.push(Self.sample(i, at)).saturated, "axis \(axis) sign \(sign) at \(limit)")
                i += 1
                #expect(!builder.push(Self.sample(i, under)).saturated, "axis \(axis) sign \(sign) under \(limit)")
            }
        }
        // A large |a| spread over the axes, none of them at the limit, is not saturation.
        let spread = SIMD3<Float>(repeating: limit * 0.9)
        #expect(!builder.push(Self.sample(i + 1, spread)).saturated)
    }

    /// More than four periods and 0.1 s without a sample (a FIFO overflow, a chip set up again)
    /// or time going back marks the next frame; jitter and a few samples missing do not.
    @Test func theFrameAfterABreakInTheSamplesIsMarked() {
        func marked(rate: Float, _ milliseconds: [Int64]) -> [Bool] {
            var builder = MotionFrameBuilder(sampleRate: rate)
            return milliseconds.map { builder.push(IMUSample(timestampNanoseconds: $0 * 1_000_000, acceleration: SIMD3(0, 0, 1), angularRate: .zero)).afterGap }
        }
        // 100 Hz: 90 ms missing is no break, 115 ms is; so is going back.
        #expect(marked(rate: 100, [0, 10, 20, 30, 120, 235, 245, 200, 210]) == [false, false, false, false, false, true, false, true, false])
        // 25 Hz: four periods are 160 ms; 150 ms missing is no break, 220 ms is.
        #expect(marked(rate: 25, [0, 40, 80, 230, 450, 490, 480, 520]) == [false, false, false, false, true, false, true, false])
    }

    @Test func frameCarriesTheReadingAndItsMagnitudes() {
        var builder = MotionFrameBuilder(sampleRate: 200)
        let a = SIMD3<Float>(0.3, -0.4, 1.2), g = SIMD3<Float>(30, -40, 120)
        let f = builder.push(IMUSample(timestampNanoseconds: 123_456_789, acceleration: a, angularRate: g))
        #expect(f.timestampNanoseconds == 123_456_789)
        #expect(f.acceleration == a)
        #expect(abs(f.accelerationMagnitude - 1.3) < 1e-6)  // 0.09 + 0.16 + 1.44 = 1.69
        #expect(abs(f.angularRateMagnitude - 130) < 1e-4)  // 900 + 1600 + 14400 = 16900
    }

    @Test func uprightReadsZeroTiltAndLyingReadsNinetyAfterAFewSeconds() {
        var builder = MotionFrameBuilder(sampleRate: 100)
        var i = 0
        var upright: Float = .nan
        for _ in 0..<500 {  // 5 s upright: +1 g on body z
            upright = builder.push(Self.sample(i, SIMD3(0, 0, 1))).tiltDegrees
            i += 1
        }
        #expect(abs(upright) < 1, "upright tilt \(upright)°")
        var tilts: [Float] = []
        for _ in 0..<1000 {  // 10 s lying: +1 g on body x, no rotation reported
            tilts.append(builder.push(Self.sample(i, SIMD3(1, 0, 0))).tiltDegrees)
            i += 1
        }
        #expect(abs(tilts.last! - 90) < 2, "lying tilt \(tilts.last!)°")
        // It gets there by rising, not by jumping: early on it is still far from lying.
        #expect(tilts[10] < 60, "tilt 0.1 s after lying down: \(tilts[10])°")
        #expect(tilts[999] > tilts[300])
    }

    @Test func lyingOnTheBackOrSideAlsoReadsNinety() {
        for a in [SIMD3<Float>(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0)] {
            var builder = MotionFrameBuilder(sampleRate: 100)
            var last: Float = 0
            for i in 0..<300 { last = builder.push(Self.sample(i, SIMD3(0, 0, 1))).tiltDegrees }
            for i in 300..<1300 { last = builder.push(Self.sample(i, a)).tiltDegrees }
            #expect(abs(last - 90) < 2, "\(a): \(last)°")
        }
    }

    @Test func upsideDownReadsOneHundredEighty() {
        var builder = MotionFrameBuilder(sampleRate: 100)
        var last: Float = 0
        // Start-up converges to whatever gravity it sees first. (Exactly antiparallel to the
        // initial estimate gives the filter no direction to turn in; real readings never are.)
        let a = SIMD3<Float>(0.05, 0.02, -1)
        let expected = acos(a.z / (a * a).sum().squareRoot()) * 180 / Float.pi
        for i in 0..<600 { last = builder.push(Self.sample(i, a)).tiltDegrees }
        #expect(expected > 176)
        #expect(abs(last - expected) < 1, "\(last)° for \(expected)°")
    }

    @Test func samplePeriodComesFromTimestampsWithinZeroToOneSecond() {
        var builder = MotionFrameBuilder(sampleRate: 200)
        let a = SIMD3<Float>(0, 0, 1)
        let nominal: Float = 1 / 200
        var t: Int64 = 5_000_000_000
        #expect(builder.push(IMUSample(timestampNanoseconds: t, acceleration: a)).samplePeriod == nominal)  // first
        for gap: Int64 in [4_000_000, 7_500_000, 5_000_000, 999_000_000] {
            t += gap
            let p = builder.push(IMUSample(timestampNanoseconds: t, acceleration: a)).samplePeriod
            #expect(abs(p - Float(gap) * 1e-9) < 1e-9, "gap \(gap) ns gave \(p) s")
        }
        // A repeated timestamp, a step back and a pause of a second or more fall back to nominal.
        for gap: Int64 in [0, -3_000_000, 1_000_000_000, 5_000_000_000] {
            t += gap
            #expect(builder.push(IMUSample(timestampNanoseconds: t, acceleration: a)).samplePeriod == nominal, "gap \(gap)")
        }
        // After the pause the next regular gap is measured again.
        t += 6_000_000
        #expect(abs(builder.push(IMUSample(timestampNanoseconds: t, acceleration: a)).samplePeriod - 0.006) < 1e-9)
    }

    @Test func aFreeFallReadsAboutMinusOneGVerticalAndAccumulatesDownwardVelocity() {
        var builder = MotionFrameBuilder(sampleRate: 100)
        var f = builder.push(Self.sample(0, SIMD3(0, 0, 1)))
        for i in 1..<500 { f = builder.push(Self.sample(i, SIMD3(0, 0, 1))) }
        #expect(abs(f.verticalAcceleration) < 0.01)
        #expect(abs(f.verticalVelocity) < 0.01)
        // 0.3 s weightless: the sensor reads 0 g, so the earth frame sees −1 g with gravity removed.
        var falling: [MotionFrame] = []
        for i in 500..<530 { falling.append(builder.push(Self.sample(i, SIMD3(0, 0, 0.001)))) }
        #expect(falling.allSatisfy { abs($0.verticalAcceleration + 1) < 0.05 })
        #expect(falling.last!.verticalVelocity < falling.first!.verticalVelocity)
        #expect(falling.last!.verticalVelocity < -1, "\(falling.last!.verticalVelocity) m/s after 0.3 s")
    }

    /// A still, upright body whose gyroscope reports 800 °/s swings about x (as two SisFall belt
    /// units did): once the guard finds that implausible, the tilt follows the accelerometer and
    /// settles upright; the same swings at a plausible 200 °/s are believed and leave the guard alone.
    @Test func aGyroscopeReportingTurnsNoBodyMakesIsLeftOut() {
        func run(amplitude: Float) -> (builder: MotionFrameBuilder, tilts: [Float]) {
            var builder = MotionFrameBuilder(sampleRate: 100)
            var tilts: [Float] = []
            for i in 0..<1500 {
                let t = Float(i) / 100
                // Start-up first (3 s), then the swings: ±amplitude at 2 Hz about x, never about a mean.
                let w: Float = i < 300 ? 0 : amplitude * sin(2 * .pi * 2 * t) + (amplitude > 0 ? amplitude * 0.4 : 0)
                tilts.append(builder.push(Self.sample(i, SIMD3(0, 0, 1), g: SIMD3(w, 0, 0))).tiltDegrees)
            }
            return (builder, tilts)
        }
        let faulty = run(amplitude: 800)
        #expect(faulty.builder.suspectGyroscopeEpisodes == 1)
        // Before the guard engages the gyroscope has tipped the attitude far over…
        #expect(faulty.tilts[300..<500].max()! > 60, "\(faulty.tilts[300..<500].max()!)°")
        // …after it, the accelerometer's upright holds.
        #expect(faulty.tilts[900...].allSatisfy { $0 < 5 }, "\(faulty.tilts[900...].max()!)°")
        let plausible = run(amplitude: 200)
        #expect(plausible.builder.suspectGyroscopeEpisodes == 0)
        #expect(plausible.tilts[700...].max()! > 20, "a believed gyroscope moves the tilt: \(plausible.tilts[700...].max()!)°")
    }
}

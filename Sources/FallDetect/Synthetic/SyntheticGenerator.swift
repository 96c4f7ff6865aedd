#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Generates labelled synthetic recordings: body-frame IMU at 100 Hz with physically consistent
/// gyroscope and accelerometer (see `SyntheticMotion`), sensor noise, activity and SisFall-style
/// label events, and for the bike scenario a 1 Hz GNSS track.
///
/// Deterministic: the same seed and scenario always give the same recording (on one platform;
/// libm's last-bit rounding may differ between platforms), and scenarios do not depend on the
/// order they are generated in. Every recording says `info.isSynthetic = true`.
public struct SyntheticGenerator: Sendable {
    public var seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// The sensor the traces pretend to come from: a ±16 g / ±2000 °/s 6-axis IMU at 100 Hz,
    /// mounted in the body frame.
    public static let sensor = SensorInfo(
        sensor: "synthetic 6-axis IMU", device: "detectord synthetic generator",
        accelerometerRange: 16, gyroscopeRange: 2000, sampleRate: SyntheticMotion.sampleRate,
        axisMapping: .identity, hasMagnetometer: false)

    /// 2025-06-14T09:00:00Z: a fixed wall-clock start keeps files reproducible.
    static let baseStartUTCNanoseconds: Int64 = 1_749_891_600 * 1_000_000_000

    public func generate(_ scenario: SyntheticScenario) -> Recording {
        let index = SyntheticScenario.allCases.firstIndex(of: scenario) ?? 0
        // Each scenario gets its own stream, so generating one never shifts another.
        let streamSeed = seed ^ (UInt64(index + 1) &* 0xD1B5_4A32_D192_ED03)
        let start = Self.baseStartUTCNanoseconds + Int64(index) * 3_600_000_000_000
        let info = RecordingInfo(
            sensor: Self.sensor, startUTCNanoseconds: start, title: scenario.rawValue, isSynthetic: true)
        var motion = SyntheticMotion(
            seed: streamSeed, attitude: scenario == .bikeCrash ? SIMD3(0, Self.ridingLean, 0) : .zero,
            sensor: Self.sensor)
        let gait = Gait(&motion.rng)
        var fixes: [GNSSFix] = []

        motion.label(0)
        switch scenario {
        case .walking:
            motion.activity("standing")
            motion.still(2)
            motion.activity("walking")
            Self.walk(&motion, seconds: 56, gait: gait, stopping: true)
            motion.activity("standing")
            motion.still(2)
        case .sittingDown:
            Self.walkThenSit(&motion, walking: 15, gait: gait)
            motion.activity("sitting")
            motion.still(20)
        case .lyingDown:
            Self.walkThenSit(&motion, walking: 10, gait: gait)
            motion.activity("sitting")
            motion.still(8)
            motion.activity("lying-down")
            Self.lieDown(&motion)
            motion.activity("lying")
            motion.still(20)
        case .forwardFall:
            motion.activity("standing")
            motion.still(2)
            motion.activity("walking")
            Self.walk(&motion, seconds: 15, gait: gait, stopping: false)
            Self.fallForward(&motion)
            motion.activity("lying")
            motion.still(25)
        case .bikeCrash:
            motion.activity("cycling")
            Self.ride(&motion, seconds: 30)
            let crashTime = motion.time
            Self.crash(&motion)
            motion.activity("lying")
            motion.still(25)
            fixes = Self.track(&motion.rng, crashTime: crashTime, duration: motion.time, startUTC: start)
        }
        return Recording(info: info, samples: motion.samples, fixes: fixes, events: motion.events)
    }

    // MARK: Walking, sitting, lying

    /// One wearer's walking style, drawn once per recording.
    struct Gait {
        /// Steps per second.
        var stepRate: Double
        /// Vertical acceleration amplitude of each step, g.
        var bounce: Double

        init(_ rng: inout SplitMix64) {
            stepRate = rng.uniform(1.8...2.0)
            bounce = rng.uniform(0.25...0.35)
        }
    }

    /// Walking straight ahead from a standstill: the trunk bounces once per step, sways sideways
    /// once per stride (two steps) and leans a few degrees forward. With `stopping` the gait
    /// fades out at the end; without it the walk ends mid-stride (for a trip).
    static func walk(_ m: inout SyntheticMotion, seconds: Double, gait: Gait, stopping: Bool) {
        let base = m.attitude
        let yaw = base.z * Double.pi / 180
        let ramp = 0.8
        var body = SIMD3<Double>.zero
        // Steps are never quite regular: the cadence and the bounce drift by a few percent.
        var steps = 0.0, previous = 0.0, cadenceDrift = 0.0, bounceDrift = 0.0
        m.run(seconds) { t, rng in
            let envelope = SyntheticCurve.ease(t / ramp) * (stopping ? SyntheticCurve.ease((seconds - t) / ramp) : 1)
            cadenceDrift = 0.995 * cadenceDrift + 0.004 * rng.gaussian()
            bounceDrift = 0.99 * bounceDrift + 0.01 * rng.gaussian()
            steps += gait.stepRate * (1 + cadenceDrift) * (t - previous)
            previous = t
            // Soft tissue and uneven ground: a little low-passed noise on top of the rhythm.
            body = 0.8 * body + 0.012 * rng.gaussian3()
            // Heel strike: a short jolt up and back near the bottom of each step's bounce.
            let heel = SyntheticCurve.pulse(steps.truncatingRemainder(dividingBy: 1), start: 0.2, duration: 0.08)
            let vertical = gait.bounce * (1 + bounceDrift) * SyntheticCurve.wave(1, steps)
                + 0.06 * SyntheticCurve.wave(2, steps, phase: 0.7) + 0.25 * heel
            let forward = -0.15 * SyntheticCurve.wave(1, steps, phase: 0.3 + Double.pi / 2) - 0.1 * heel
            let lateral = 0.07 * SyntheticCurve.wave(0.5, steps)
            let acceleration = envelope * SIMD3(
                forward * cos(yaw) - lateral * sin(yaw), forward * sin(yaw) + lateral * cos(yaw), vertical) + envelope * body
            // Roll and yaw swing once per stride (two steps), pitch nods once per step.
            let sway = SIMD3(
                2.0 * SyntheticCurve.wave(0.5, steps),
                4.0 + 1.5 * SyntheticCurve.wave(1, steps, phase: 0.4),
                2.5 * SyntheticCurve.wave(0.5, steps, phase: 0.9) - 2.5 * sin(0.9))
            return (base + envelope * sway, acceleration)
        }
    }

    /// Standing, walking, a short pause, then sitting down on a chair.
    static func walkThenSit(_ m: inout SyntheticMotion, walking: Double, gait: Gait) {
        m.activity("standing")
        m.still(2)
        m.activity("walking")
        walk(&m, seconds: walking, gait: gait, stopping: true)
        m.activity("standing")
        m.still(1)
        m.activity("sitting-down")
        sitDown(&m)
    }

    /// The trunk leans forward while the hips go down, the seat stops the descent with a ~1.5 g
    /// bump, and the sitter settles leaning back slightly against the backrest.
    static func sitDown(_ m: inout SyntheticMotion) {
        let base = m.attitude
        m.run(2.2) { t, _ in
            let pitch = t < 0.7
                ? 20 * SyntheticCurve.ease(t / 0.7)
                : 20 - 28 * SyntheticCurve.ease((t - 0.7) / 1.1)
            // Down (0.25 g for 0.5 s), braking by the legs, then the seat absorbs the rest:
            // the three pulses' areas cancel, so the hips end at rest.
            let vertical = -0.25 * SyntheticCurve.pulse(t, start: 0.3, duration: 0.5)
                + 0.15 * SyntheticCurve.pulse(t, start: 0.8, duration: 0.4)
                + 0.54 * SyntheticCurve.pulse(t, start: 1.2, duration: 0.12)
            let forward = -0.08 * SyntheticCurve.pulse(t, start: 0.1, duration: 0.6)
                + 0.08 * SyntheticCurve.pulse(t, start: 1.0, duration: 0.6)
            return (base + SIMD3(0, pitch, 0), SIMD3(forward, 0, vertical))
        }
    }

    /// From sitting, a slow controlled lie-back (about 45 °/s at most) to 88° from upright.
    static func lieDown(_ m: inout SyntheticMotion) {
        let base = m.attitude
        let target = -88.0
        m.run(4.0) { t, _ in
            let progress = SyntheticCurve.ease(t / 3.5)
            let sway = sin(Double.pi * min(t / 3.5, 1))
            let roll = 4 * sway * sway  // a slight twist that starts and ends without a jerk
            let vertical = -0.06 * SyntheticCurve.pulse(t, start: 0.5, duration: 1.5)
                + 0.06 * SyntheticCurve.pulse(t, start: 2.0, duration: 1.5)
            let backward = -0.05 * SyntheticCurve.pulse(t, start: 0.3, duration: 1.5)
                + 0.05 * SyntheticCurve.pulse(t, start: 1.8, duration: 1.5)
            return (base + SIMD3(roll, (target - base.y) * progress, 0), SIMD3(backward, 0, vertical))
        }
    }

    // MARK: Forward fall

    /// A trip while walking: the foot catches (alert), balance is lost and the body drops in near
    /// free fall (|a| well under 0.4 g for about 0.35 s) while pitching forward ever faster, hits
    /// the ground at 4–8 g for 50 ms with the rotation stopping, bounces and comes to rest prone.
    static func fallForward(_ m: inout SyntheticMotion) {
        let base = m.attitude
        let impactTime = 0.6, impactLength = 0.05
        let peak = m.rng.uniform(5.0...6.8)
        let finalPitch = 88.0
        let delta = finalPitch - base.y
        // The pitch grows as t² until impact, then the rate falls linearly to zero during it;
        // `beforeImpact` is chosen so the two parts add up to `delta`.
        let beforeImpact = delta / (1 + impactLength / impactTime)
        let impactRate = 2 * beforeImpact / impactTime
        let direction = SIMD3<Double>(-0.25, 0.1, 1) / (SIMD3<Double>(-0.25, 0.1, 1) * SIMD3(-0.25, 0.1, 1)).sum().squareRoot()
        let drop = 0.85

        m.label(1)
        m.activity("falling")
        m.label(2, offset: 0.12)
        m.run(0.9) { t, _ in
            var pitch: Double
            if t < impactTime {
                pitch = beforeImpact * (t / impactTime) * (t / impactTime)
            } else if t < impactTime + impactLength {
                let tau = t - impactTime
                pitch = beforeImpact + impactRate * (tau - tau * tau / (2 * impactLength))
            } else {
                pitch = delta
            }
            let twist = SyntheticCurve.ease(t / (impactTime + impactLength))
            let attitude = base + SIMD3(6 * twist, pitch, -4 * twist)

            var a = SIMD3<Double>.zero
            a.x = -0.5 * SyntheticCurve.pulse(t, start: 0, duration: 0.2)  // the foot is caught
            if t < impactTime {
                a.z = -drop * SyntheticCurve.ease((t - 0.12) / 0.18)
                a.x += 0.05 * SyntheticCurve.ease((t - 0.2) / 0.1)
            } else if t <= impactTime + impactLength {
                let tau = t - impactTime
                a = peak * SyntheticCurve.pulse(tau, start: 0, duration: impactLength) * direction
                a.z -= drop * (1 - SyntheticCurve.ease(tau / impactLength))
            } else {
                let tau = t - impactTime - impactLength
                a.z = 1.2 * exp(-tau / 0.05) * SyntheticCurve.wave(12, tau)  // rebound of soft tissue
            }
            return (attitude, a)
        }
        m.label(0)
    }

    // MARK: Bike

    /// Forward lean of a rider on a touring bike, degrees.
    static let ridingLean = 25.0

    /// Riding: the trunk rocks with the pedalling, the road shakes everything, the rider steers a
    /// little. Road vibration enters both the linear acceleration and (smaller) the attitude.
    static func ride(_ m: inout SyntheticMotion, seconds: Double) {
        let base = m.attitude
        let cadence = m.rng.uniform(1.25...1.45)  // crank turns per second (75–87 rpm)
        var vibration = SIMD3<Double>.zero
        var jitter = SIMD3<Double>.zero
        m.run(seconds) { t, rng in
            vibration = 0.5 * vibration + SIMD3(0.04, 0.04, 0.12) * rng.gaussian3()
            jitter = 0.95 * jitter + 0.04 * rng.gaussian3()  // ~0.13° of shaking, a few °/s
            let rock = SIMD3(
                1.5 * SyntheticCurve.wave(cadence, t),
                0.8 * SyntheticCurve.wave(2 * cadence, t),
                1.5 * SyntheticCurve.wave(0.05, t))
            let pedalling = SIMD3(0.03 * SyntheticCurve.wave(2 * cadence, t, phase: 1), 0, 0.05 * SyntheticCurve.wave(2 * cadence, t))
            return (base + rock + jitter, vibration + pedalling)
        }
    }

    /// The front wheel hits an obstacle (alert): a 2 g deceleration jolt; the rider is thrown over
    /// the bars (fall) tumbling at several hundred °/s, lands with an 8–15 g impact, slides to a
    /// stop and ends up on the back.
    static func crash(_ m: inout SyntheticMotion) {
        let base = m.attitude
        let impactTime = 0.55, impactLength = 0.06
        let peak = m.rng.uniform(10.0...13.0)
        let tumble = SIMD3<Double>(30, 270 - base.y, 60)  // end: on the back, turned about
        let direction = SIMD3<Double>(0.5, -0.3, 1) / (SIMD3<Double>(0.5, -0.3, 1) * SIMD3(0.5, -0.3, 1)).sum().squareRoot()
        let airborneDrop = 0.7
        let slideEnd = 2.5
        var scrape = SIMD3<Double>.zero

        m.label(1)
        m.activity("bike-crash")
        m.label(2, offset: 0.12)
        m.label(0, offset: impactTime + impactLength)
        m.run(slideEnd) { t, rng in
            let attitude = base + tumble * SyntheticCurve.ease((t - 0.05) / 1.25)
            var a = SIMD3<Double>.zero
            a.x = -2.2 * SyntheticCurve.pulse(t, start: 0, duration: 0.12)
            a.z = 1.0 * SyntheticCurve.pulse(t, start: 0, duration: 0.06)
            if t >= 0.12 && t < impactTime {
                a.z = -airborneDrop * SyntheticCurve.ease((t - 0.12) / 0.1)
            } else if t >= impactTime && t <= impactTime + impactLength {
                let tau = t - impactTime
                a = peak * SyntheticCurve.pulse(tau, start: 0, duration: impactLength) * direction
                a.z -= airborneDrop * (1 - SyntheticCurve.ease(tau / impactLength))
            } else if t > impactTime + impactLength {
                // Sliding on asphalt: friction brakes the body, the surface scrapes it.
                let fade = 1 - SyntheticCurve.ease((t - 1.9) / 0.6)
                scrape = 0.5 * scrape + 0.25 * fade * rng.gaussian3()
                a = SIMD3(-0.45 * fade, 0, 0) + scrape
            }
            return (attitude, a)
        }
    }

    /// A 1 Hz gpsd-like track: 3D fixes moving along a slowly wandering heading at 20–25 km/h from
    /// a start near Zürich, then the speed falls to zero within 2.5 s of the crash. Each fix
    /// arrives 0.35 s after its UTC epoch; track is absent when standing (receivers report none).
    static func track(_ rng: inout SplitMix64, crashTime: Double, duration: Double, startUTC: Int64) -> [GNSSFix] {
        var latitude = 47.3769 + rng.uniform(-0.02...0.02)
        var longitude = 8.5417 + rng.uniform(-0.02...0.02)
        let altitude = rng.uniform(400...440)
        let heading = rng.uniform(0...360)
        let cruise = rng.uniform(6.0...6.4)  // m/s: 21.6–23 km/h, ±0.25 m/s of variation
        let phase = rng.uniform(0...(2 * Double.pi))
        var satellites = Int(rng.uniform(9...12))
        let metresPerDegree = 111_320.0
        let crashSpeed = cruise + 0.25 * sin(2 * Double.pi * crashTime / 40 + phase)

        func speed(_ t: Double) -> Double {
            t < crashTime ? cruise + 0.25 * sin(2 * Double.pi * t / 40 + phase) : crashSpeed * max(0, 1 - (t - crashTime) / 2.5)
        }
        func course(_ t: Double) -> Double { heading + 3 * sin(2 * Double.pi * t / 60) }

        var fixes: [GNSSFix] = []
        let step = 0.1
        var t = 0.0
        for second in 0..<Int(duration) {
            // Integrate the position up to this epoch.
            while t < Double(second) - 1e-9 {
                let v = speed(t + step / 2), c = course(t + step / 2) * Double.pi / 180
                latitude += v * step * cos(c) / metresPerDegree
                longitude += v * step * sin(c) / (metresPerDegree * cos(latitude * Double.pi / 180))
                t += step
            }
            let v = speed(Double(second))
            let reported = v > 0.3 ? v + 0.05 * rng.gaussian() : abs(0.04 * rng.gaussian())
            if rng.uniform() < 0.1 { satellites = min(14, max(6, satellites + (rng.uniform() < 0.5 ? -1 : 1))) }
            var heading = course(Double(second)) + 0.5 * rng.gaussian()
            heading = heading.truncatingRemainder(dividingBy: 360)
            if heading < 0 { heading += 360 }
            fixes.append(GNSSFix(
                timestampNanoseconds: Int64(second) * 1_000_000_000 + 350_000_000,
                utcNanoseconds: startUTC + Int64(second) * 1_000_000_000,
                mode: .threeD,
                latitude: latitude + 1.5 * rng.gaussian() / metresPerDegree,
                longitude: longitude + 1.5 * rng.gaussian() / (metresPerDegree * cos(latitude * Double.pi / 180)),
                altitude: altitude + 2 * rng.gaussian(),
                speed: reported,
                track: v > 0.5 ? heading : nil,
                horizontalAccuracy: rng.uniform(2.5...4.0),
                verticalAccuracy: rng.uniform(4.0...7.0),
                satellitesUsed: satellites))
        }
        return fixes
    }
}

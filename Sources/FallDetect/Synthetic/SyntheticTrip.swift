#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journey on the synthetic motion: it keeps the device's true ground speed at every IMU sample
/// beside the samples, so the IMU's forward acceleration and the GNSS speed come from one speed
/// profile, and then makes the 1 Hz receiver fixes from it. Direction of travel is world x.
struct SyntheticTrip {
    static let g = 9.806_65

    var motion: SyntheticMotion
    /// True ground speed at each sample so far, m/s.
    private(set) var speeds: [Double] = []
    /// Seconds (from the first sample) when the receiver has no fix.
    private(set) var outages: [ClosedRange<Double>] = []
    /// Road vibration and body shake carried from one riding segment to the next, so segments
    /// join without a step in the signals.
    var vibration = SIMD3<Double>.zero
    var jitter = SIMD3<Double>.zero

    init(motion: SyntheticMotion) {
        self.motion = motion
    }

    var time: Double { motion.time }

    /// The speed at the last sample, m/s (0 before the first).
    var speed: Double { speeds.last ?? 0 }

    /// Runs `seconds` with the ground speed following `speed(t)` (m/s, t from the segment's start),
    /// and adds its derivative, the longitudinal acceleration, to the pose's world-frame
    /// acceleration: what the IMU feels is what the GNSS speed says.
    mutating func drive(
        _ seconds: Double, speed profile: (Double) -> Double,
        pose: (Double, inout SplitMix64) -> SyntheticMotion.Pose
    ) {
        motion.run(seconds) { t, rng in
            var p = pose(t, &rng)
            p.acceleration.x += Self.slope(profile, t) / Self.g
            return p
        }
        appendSpeeds(seconds, profile)
    }

    /// Runs a script that writes the motion itself (one of `SyntheticGenerator`'s) and records its
    /// speed profile beside it.
    mutating func scripted(speed profile: (Double) -> Double, _ script: (inout SyntheticMotion) -> Void) {
        let before = motion.samples.count
        script(&motion)
        for i in 0..<(motion.samples.count - before) {
            speeds.append(max(profile(Double(i) * SyntheticMotion.period), 0))
        }
    }

    /// The derivative of a speed profile at `t` (m/s²), by a central difference (one-sided at 0).
    static func slope(_ profile: (Double) -> Double, _ t: Double) -> Double {
        let h = 0.001
        let lo = max(t - h, 0)
        return (profile(t + h) - profile(lo)) / (t + h - lo)
    }

    /// Stands still (breathing only), not moving over ground.
    mutating func still(_ seconds: Double) {
        motion.still(seconds)
        appendSpeeds(seconds) { _ in 0 }
    }

    /// The receiver loses its fix from now for `seconds` (a tunnel, a bag, a damaged antenna).
    mutating func loseGNSS(for seconds: Double) {
        outages.append(time...(time + seconds))
    }

    private mutating func appendSpeeds(_ seconds: Double, _ profile: (Double) -> Double) {
        let count = Int((seconds * SyntheticMotion.sampleRate).rounded())
        speeds.reserveCapacity(speeds.count + count)
        for i in 0..<count {
            speeds.append(max(profile(Double(i) * SyntheticMotion.period), 0))
        }
    }

    /// A speed change from `from` to `to` shaped by `SyntheticCurve.ease`, whose peak acceleration
    /// is `acceleration` (m/s²): the jerk-limited way drivers brake and speed up. Returns the
    /// profile and how long it takes.
    static func change(from v0: Double, to v1: Double, acceleration: Double) -> (seconds: Double, speed: (Double) -> Double) {
        // ease' peaks at 1.875, so Δv · 1.875 / T = acceleration.
        let seconds = max(abs(v1 - v0) * 1.875 / acceleration, 0.1)
        return (seconds, { t in v0 + (v1 - v0) * SyntheticCurve.ease(t / seconds) })
    }

    /// A half-sine deceleration pulse: the speed falls by `deltaV` (m/s) from `v0` in `duration`
    /// seconds, peaking at `deltaV · π / (2 · duration)`. Crash tests describe pulses this way.
    static func pulseSpeed(_ t: Double, from v0: Double, deltaV: Double, duration: Double) -> Double {
        if t <= 0 { return v0 }
        if t >= duration { return v0 - deltaV }
        return v0 - deltaV * (1 - cos(Double.pi * t / duration)) / 2
    }

    /// The duration of a half-sine pulse with the given delta-v (m/s) and peak (g).
    static func pulseDuration(deltaV: Double, peak: Double) -> Double {
        Double.pi * deltaV / (2 * peak * g)
    }

    /// A 1 Hz gpsd-like track: 3D fixes along a slowly wandering heading from a start near Zürich,
    /// with the speed of each epoch (Doppler noise 0.05 m/s, near 0 when standing), arriving 0.35 s
    /// after the epoch as in `SyntheticGenerator`; during an outage "no fix" reports without position
    /// or speed, as gpsd sends them.
    func fixes(_ rng: inout SplitMix64, startUTC: Int64) -> [GNSSFix] {
        var latitude = 47.3769 + rng.uniform(-0.02...0.02)
        var longitude = 8.5417 + rng.uniform(-0.02...0.02)
        let altitude = rng.uniform(400...440)
        let heading = rng.uniform(0...360)
        var satellites = Int(rng.uniform(9...12))
        let metresPerDegree = 111_320.0
        func course(_ t: Double) -> Double { heading + 3 * sin(2 * Double.pi * t / 60) }

        var fixes: [GNSSFix] = []
        let seconds = Int(Double(speeds.count) * SyntheticMotion.period)
        var sample = 0
        for second in 0..<seconds {
            // Move along the track up to this epoch.
            let epochSample = second * Int(SyntheticMotion.sampleRate)
            while sample < epochSample {
                let c = course(Double(sample) * SyntheticMotion.period) * Double.pi / 180
                let step = speeds[sample] * SyntheticMotion.period
                latitude += step * cos(c) / metresPerDegree
                longitude += step * sin(c) / (metresPerDegree * cos(latitude * Double.pi / 180))
                sample += 1
            }
            let at = Int64(second) * 1_000_000_000 + 350_000_000
            let utc = startUTC + Int64(second) * 1_000_000_000
            if outages.contains(where: { $0.contains(Double(second)) }) {
                fixes.append(GNSSFix(timestampNanoseconds: at, utcNanoseconds: utc, mode: .none))
                continue
            }
            let v = speeds[epochSample]
            let reported = v > 0.3 ? v + 0.05 * rng.gaussian() : abs(0.04 * rng.gaussian())
            if rng.uniform() < 0.1 { satellites = min(14, max(6, satellites + (rng.uniform() < 0.5 ? -1 : 1))) }
            var track = course(Double(second)) + 0.5 * rng.gaussian()
            track = track.truncatingRemainder(dividingBy: 360)
            if track < 0 { track += 360 }
            fixes.append(GNSSFix(
                timestampNanoseconds: at, utcNanoseconds: utc, mode: .threeD,
                latitude: latitude + 1.5 * rng.gaussian() / metresPerDegree,
                longitude: longitude + 1.5 * rng.gaussian() / (metresPerDegree * cos(latitude * Double.pi / 180)),
                altitude: altitude + 2 * rng.gaussian(),
                speed: reported, track: v > 0.5 ? track : nil,
                horizontalAccuracy: rng.uniform(2.5...4.0), verticalAccuracy: rng.uniform(4.0...7.0),
                satellitesUsed: satellites))
        }
        return fixes
    }
}

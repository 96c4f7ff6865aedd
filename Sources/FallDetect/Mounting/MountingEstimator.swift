#if canImport(Glibc)
import Glibc
#endif

/// Finds which way is up for a device clipped on a belt in any orientation, and turns its
/// sensor-frame samples into body-frame ones: a proper rotation taking the estimated up onto body
/// +z, acceleration and angular rate alike. Heading (where body x points) is left arbitrary: no
/// detector reads it (docs/detectors.md, "Any mounting").
///
/// The rule, all of it on smoothed statistics of the accelerometer (time constant
/// `smoothingSeconds`):
/// - **Walking** is the reliable sign of an upright wearer: the standard deviation of |a| in
///   `walkingDeviation` (steps; still postures read under 0.05 g, jogging 0.7 g and more), a mean
///   |a| near 1 g, |a| crossing its mean at a step's rate (`walkingCrossings`), and a steady mean
///   direction (`walkingSteadiness`: the vector mean keeps ≥ 93 % of the mean |a|; turning the
///   device or the body shortens it). Held `walkingHoldSeconds`, each walking sample adds its
///   smoothed gravity direction to a running mean over about `walkingAverageSeconds` of walking.
///   After `walkingEstimateSeconds` of walking that mean is the estimate; once the mean spans
///   `walkingAverageSeconds` it is taken again whenever it has moved more than `refineDegrees`
///   from the one in use (a belt shifting). Each change turns the body frame, and a candidate
///   whose posture windows straddle one reads the turn as attitude change, so changes are rare.
/// - **Before any walking**, a provisional estimate comes from the first steady stretch: |a|
///   within 0.9-1.1 g, its deviation under `steadyDeviation`, held `steadySeconds`. People put the
///   device on and stand; the stretch is long enough that handling, which moves the device every
///   second or two, does not count. It is never replaced by a later steady stretch (the wearer
///   may be lying by then), only by walking.
/// - **Off the body** (`deviceOff`, from the wear monitor): a provisional estimate is forgotten
///   and none is taken from a steady stretch until the device is worn again. Started while the
///   device lay on a table (a restart at night), it took the table's "up", and a wearer who put
///   it on and did not walk kept a frame 90° off: standing read as lying, so a fall read as a
///   turn in bed and a fall ending on the back as getting up.
/// - **Re-clipping** shows as walking whose gravity direction lies more than `reclipDegrees` from
///   the estimate for `reclipSeconds` of walking: the walking mean starts afresh from the new
///   mounting, so the estimate follows in `walkingEstimateSeconds` rather than after the old mean
///   has drifted across.
///
/// Until the first estimate the samples pass through unrotated and `isEstimated` is false. O(1)
/// per sample, no allocation.
public struct MountingEstimator: Sendable {
    /// Where the estimate in use came from.
    public enum Basis: String, Sendable, Hashable {
        /// None yet: samples pass through as they are.
        case none
        /// The first steady stretch (provisional).
        case steady
        /// Upright walking, or given at `init` as already known.
        case walking
    }

    // The bounds, with why each is what it is.
    /// Smoothing of every statistic, s: two strides at a slow 1 Hz stride rate, so one step's
    /// swing moves the mean direction by about 1°.
    public static let smoothingSeconds: Float = 2
    /// Walking's |a| standard deviation, g: 0.15-0.45 at a belt in SisFall's walking trials and in
    /// HAPT's walking (slow to fast); standing, sitting and lying read under 0.05, jogging 0.7+.
    public static let walkingDeviation: ClosedRange<Float> = 0.1...0.55
    /// Mean |a| while walking, g (1.0-1.1 measured; the bound leaves room for a miscalibration).
    public static let walkingMagnitude: ClosedRange<Float> = 0.9...1.15
    /// Crossings of |a| through its mean per second: two per step at 1.5-3 steps/s, with
    /// some double peaks; sitting down and lying down cross under 3/s on average.
    public static let walkingCrossings: ClosedRange<Float> = 3...15
    /// |mean a| / mean |a| while walking: 0.93-0.98 measured; jogging and turning over fall below.
    public static let walkingSteadiness: Float = 0.93
    /// Hysteresis of a crossing, g: above a still sensor's noise, below a step's swing.
    public static let crossingHysteresis: Float = 0.03
    /// The walking tests must hold this long before the samples count, s.
    public static let walkingHoldSeconds: Float = 1
    /// Walking needed before its mean is the estimate, s: a few strides.
    public static let walkingEstimateSeconds: Float = 3
    /// The walking mean's memory, s of walking.
    public static let walkingAverageSeconds: Float = 10
    /// A walking mean this far from the estimate replaces it, degrees: small enough that no tilt
    /// rule (15° and more) notices the change, large enough not to churn on a slope or a stair.
    public static let refineDegrees: Float = 5
    /// Walking this far from the estimate is a re-clipped device, degrees: beyond the trunk's own
    /// lean in walking, on stairs and slopes (up to about 15-20°).
    public static let reclipDegrees: Float = 25
    /// ... for this much walking, s: a few strides, so a stumble or a bend does not count.
    public static let reclipSeconds: Float = 4
    /// A steady stretch's |a| standard deviation, g: standing reads 0.003-0.02 (sway, breathing).
    public static let steadyDeviation: Float = 0.03
    /// Mean |a| of a steady stretch, g.
    public static let steadyMagnitude: ClosedRange<Float> = 0.9...1.1
    /// |mean a| / mean |a| of a steady stretch: the direction does not move.
    public static let steadySteadiness: Float = 0.99
    /// How long a steady stretch must last to give the provisional estimate, s.
    public static let steadySeconds: Float = 5

    public private(set) var sampleRate: Float
    private(set) var period: Float
    private(set) var alpha: Float
    var started = false
    /// Smoothed acceleration (gravity's direction and size), |a| and |a|², sensor frame.
    var mean = SIMD3<Float>.zero
    var meanMagnitude: Float = 0
    var meanSquare: Float = 0
    /// Crossings of |a| through its mean per second, smoothed; and which side |a| is on.
    var crossingRate: Float = 0
    var above = false
    /// How long the walking and steady tests have held without a break, s.
    var walkingRun: Float = 0
    var steadyRun: Float = 0
    /// Running mean of the walking gravity direction and the walking seconds in it.
    var walkingMean = SIMD3<Float>.zero
    var walkingSeconds: Float = 0
    /// Walking seconds spent beyond `reclipDegrees` of the estimate.
    var offSeconds: Float = 0
    /// True until walking gave an estimate, and again after a re-clip: the next walking mean
    /// is taken after `walkingEstimateSeconds`, not held to the refinement's full mean.
    var awaitingWalking = true
    /// Set while the wear monitor says the device is off the body: no steady stretch is taken.
    public private(set) var off = false

    /// The estimated up in sensor coordinates (unit), nil before the first estimate.
    public private(set) var up: SIMD3<Float>?
    public private(set) var basis: Basis = .none
    /// Sensor frame to body frame.
    public private(set) var rotation = MountingRotation.identity
    /// How many times the estimate changed (the provisional one, walking's, refinements, re-clips).
    public private(set) var changes = 0
    /// How many of those were re-clips.
    public private(set) var reclips = 0

    /// False until the first estimate: which way the body lies is unknown, so no posture, tilt or
    /// fall can be read. A phone handled before it is clipped on reads as a body lying and being
    /// struck (HAPT's recordings begin so), and the detectors wait.
    public var isEstimated: Bool { basis != .none }

    /// `sampleRate` in Hz (the nominal rate: the statistics count samples). `up`, when given, is a
    /// mounting already known (a device worn through a session; the bench's per-subject estimate),
    /// taken as if from walking; it is still re-estimated as the rules say.
    public init(sampleRate: Float, up: SIMD3<Float>? = nil) throws(FallDetectError) {
        guard sampleRate.isFinite, sampleRate >= 1 else {
            throw FallDetectError(.invalidArgument, "the sample rate must be at least 1 Hz, got \(sampleRate)", field: "sampleRate")
        }
        self.sampleRate = sampleRate
        period = 1 / sampleRate
        alpha = 1 - exp(-period / Self.smoothingSeconds)
        if let up {
            let n = (up * up).sum().squareRoot()
            guard n.isFinite, n > 0 else {
                throw FallDetectError(.invalidArgument, "a known up must be a non-zero finite vector, got \(up)", field: "up")
            }
            adopt(up / n, basis: .walking)
            awaitingWalking = false
        }
    }

    /// Goes on at another rate with what it learned (the chip runs at 104 Hz where 100 was asked):
    /// every statistic is kept in seconds, g and crossings per second, so only the step per
    /// sample changes. Kept at the old rate, a walk's seconds would count 4 % off there, and
    /// 12.5 % off at 225 Hz for 200.
    public mutating func retime(to sampleRate: Float) throws(FallDetectError) {
        let fresh = try MountingEstimator(sampleRate: sampleRate)
        self.sampleRate = fresh.sampleRate
        period = fresh.period
        alpha = fresh.alpha
    }

    /// Rotates one sensor-frame sample into the body frame after updating the estimate with it.
    public mutating func push(_ sample: IMUSample) -> IMUSample {
        observe(sample.acceleration)
        var out = sample
        out.acceleration = rotation.apply(sample.acceleration)
        out.angularRate = rotation.apply(sample.angularRate)
        return out
    }

    /// Updates the statistics and the estimate with one sensor-frame acceleration, g.
    mutating func observe(_ a: SIMD3<Float>) {
        // A dropped or broken reading says nothing about gravity.
        guard a.x.isFinite, a.y.isFinite, a.z.isFinite else { return }
        let m = (a * a).sum().squareRoot()
        if !started {
            mean = a
            meanMagnitude = m
            meanSquare = m * m
            started = true
        }
        mean += alpha * (a - mean)
        meanMagnitude += alpha * (m - meanMagnitude)
        meanSquare += alpha * (m * m - meanSquare)
        var crossed: Float = 0
        if above, m < meanMagnitude - Self.crossingHysteresis {
            above = false
            crossed = 1
        } else if !above, m > meanMagnitude + Self.crossingHysteresis {
            above = true
            crossed = 1
        }
        crossingRate += alpha * (crossed * sampleRate - crossingRate)

        let deviation = max(meanSquare - meanMagnitude * meanMagnitude, 0).squareRoot()
        let length = (mean * mean).sum().squareRoot()
        guard length > 0, meanMagnitude > 0 else { return }
        let steadiness = length / meanMagnitude
        let direction = mean / length

        let walking = Self.walkingDeviation.contains(deviation) && Self.walkingMagnitude.contains(meanMagnitude)
            && Self.walkingCrossings.contains(crossingRate) && steadiness >= Self.walkingSteadiness
        walkingRun = walking ? walkingRun + period : 0
        if walkingRun >= Self.walkingHoldSeconds {
            walk(direction)
            return
        }
        let steady = deviation < Self.steadyDeviation && Self.steadyMagnitude.contains(meanMagnitude)
            && steadiness >= Self.steadySteadiness
        steadyRun = steady ? steadyRun + period : 0
        if basis == .none, !off, steadyRun >= Self.steadySeconds { adopt(direction, basis: .steady) }
    }

    /// One walking sample whose smoothed gravity direction is `direction`.
    mutating func walk(_ direction: SIMD3<Float>) {
        if basis == .walking, let up, Self.degrees(between: direction, up) > Self.reclipDegrees {
            offSeconds += period
            if offSeconds >= Self.reclipSeconds {
                // Forget the old mounting's walking; the new one's is in `direction` already.
                walkingMean = .zero
                walkingSeconds = 0
                offSeconds = 0
                awaitingWalking = true
                reclips += 1
            }
        } else {
            offSeconds = 0
        }
        walkingSeconds += period
        // A plain mean at first, then an exponential one over `walkingAverageSeconds`.
        let weight = max(period / walkingSeconds, period / Self.walkingAverageSeconds)
        walkingMean += weight * (direction - walkingMean)
        guard walkingSeconds >= Self.walkingEstimateSeconds else { return }
        let n = (walkingMean * walkingMean).sum().squareRoot()
        guard n > 0 else { return }
        let estimate = walkingMean / n
        // The first walking estimate comes at once; a refinement only from a full mean, so that
        // a walk's first strides (slower, often leaning) do not move the frame back and forth.
        if awaitingWalking {
            awaitingWalking = false
            adopt(estimate, basis: .walking)
        } else if walkingSeconds >= Self.walkingAverageSeconds, let up, Self.degrees(between: estimate, up) > Self.refineDegrees {
            adopt(estimate, basis: .walking)
        }
    }

    /// The wear monitor's verdict: taken off forgets a provisional estimate (a table's stillness
    /// may have given it) and holds steady stretches back until the device is worn again; a
    /// walking estimate stands, since only a body walks.
    public mutating func deviceOff(_ isOff: Bool) {
        off = isOff
        guard isOff, basis == .steady else { return }
        up = nil
        basis = .none
        rotation = .identity
        steadyRun = 0
        changes += 1
    }

    mutating func adopt(_ estimate: SIMD3<Float>, basis: Basis) {
        up = estimate
        self.basis = basis
        rotation = MountingRotation(up: estimate)
        changes += 1
    }

    /// The angle between two unit vectors, degrees.
    static func degrees(between a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        acos(max(-1, min(1, (a * b).sum()))) * 180 / .pi
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Detects a vehicle crash (car, motorcycle, bicycle) from motion frames and GNSS fixes:
///
/// 1. **Armed** while trusted GNSS ground speed is at or above `armingSpeed`, and for
///    `armingHoldSeconds` after the last such fix (Liberty Rider: only armed when moving).
/// 2. **Impact**: |a| at or above `impactThreshold` (WreckWatch: 4 g). A saturated reading counts as
///    at least full scale, and a clipped excursion that lasts `saturatedImpactSeconds` or carries
///    `impactDeltaV` of impulse counts too, so a ±16 g part still sees a 60 g crash whatever the
///    threshold.
/// 3. **Stopped**: within `confirmationWindowSeconds` a trusted speed at or below `stopSpeed`, or
///    down by `speedDropFraction`, confirms and the event is emitted at that fix.
/// 4. **Keeps moving** cancels: a speed back at `armingSpeed` once the receiver's lag is over
///    (`speedLagSeconds`) and not falling at `slidingDeceleration` (a slide), or `steadyMotionSeconds` of riding motion at the pre-impact trunk angle.
///
/// Without GNSS (never a fix, or no trusted speed for `gnssTimeoutSeconds`), an impact followed by
/// a posture change of `fallbackTiltChangeDegrees` and `fallbackStillSeconds` of stillness confirms
/// instead, with confidence at most
/// `fallbackConfidence`: a speed is what tells a crash from a dropped device, and it is missing.
/// The same fallback applies when GNSS is lost after an armed impact.
///
/// Feed frames and fixes in time order on the same monotonic clock. O(1) per call and no
/// allocation, except building the event when one is emitted.
public struct CrashDetector: Sendable {
    /// The name events carry in `DetectionEvent.detector`.
    public static let name = "crash"

    public let parameters: CrashDetectorParameters

    // GNSS.
    private var lastSpeed: Double?
    private var lastSpeedTime: Int64?
    /// The first fix of the current armed run (the `armed` phase) and the latest one.
    private var armedSince: Int64?
    private var lastArmedTime: Int64?

    // Motion, smoothed.
    private var activity: Float = 0
    private var angularRate: Float = 0
    /// The smoothed specific force in the body frame: gravity's direction whenever the body is still.
    private var gravity = SIMD3<Float>(0, 0, 1)
    private var tiltBefore: Float?
    private var gravityBefore: SIMD3<Float>?

    private var excursion: Excursion?
    private var pending: Confirmation?

    /// One run of samples at or above the impact level.
    private struct Excursion {
        var peak: Float = 0
        var peakTime: Int64
        var saturated = false
        var seconds: Float = 0
        /// ∫(|a| − 1 g)dt, m/s.
        var deltaV: Float = 0
        /// Already used to start (or merged into) a confirmation.
        var consumed = false
    }

    /// An impact waiting for its stop (or stillness).
    private struct Confirmation {
        enum Mode { case speed, stillness }
        var mode: Mode
        /// When the impact was recognised: the windows count from here.
        var startTime: Int64
        /// When the largest |a| of the event was read (the `impact` phase).
        var impactTime: Int64
        var armedSince: Int64?
        var peak: Float
        var saturated: Bool
        var deltaV: Float
        var peakAngularRate: Float
        var tiltBefore: Float?
        var gravityBefore: SIMD3<Float>?
        var speedBefore: Double?
        var speedAfter: Double?
        var steadySeconds: Double = 0
        var stillSeconds: Double = 0
        var stillSince: Int64?
        var tilt: Float = 0
    }

    /// Throws `.invalidArgument` naming the field when the parameters do not validate.
    public init(parameters: CrashDetectorParameters = CrashDetectorParameters()) throws(FallDetectError) {
        try parameters.validate()
        self.parameters = parameters
    }

    /// True while an impact waits for its confirmation.
    public var isConfirming: Bool { pending != nil }

    /// Whether the detector is armed at `time` (monotonic nanoseconds).
    public func isArmed(at time: Int64) -> Bool {
        guard let last = lastArmedTime else { return false }
        return Double(time - last) * 1e-9 <= parameters.armingHoldSeconds
    }

    /// Whether GNSS speed counts as lost at `time`: never a trusted speed, or too old.
    public func isGNSSLost(at time: Int64) -> Bool {
        guard let last = lastSpeedTime else { return true }
        return Double(time - last) * 1e-9 > parameters.gnssTimeoutSeconds
    }

    // MARK: GNSS

    public mutating func push(fix: GNSSFix) -> DetectionEvent? {
        // A fix without a trusted speed says nothing about motion; its absence ages the last one.
        guard fix.isTrusted, let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        let t = fix.timestampNanoseconds
        if speed >= parameters.armingSpeed {
            if !isArmed(at: t) { armedSince = t }
            lastArmedTime = t
        }
        // Deceleration since the previous fix, m/s² (0 when there is none to compare with).
        var deceleration = 0.0
        if let previous = lastSpeed, let before = lastSpeedTime, t > before {
            deceleration = (previous - speed) / (Double(t - before) * 1e-9)
        }
        lastSpeed = speed
        lastSpeedTime = t

        guard var p = pending, t >= p.startTime else { return nil }
        let sinceImpact = Double(t - p.startTime) * 1e-9
        p.speedAfter = speed
        pending = p
        // Without a speed before the impact (stillness mode) a stop proves nothing: a traffic light.
        if p.mode == .speed, sinceImpact <= parameters.confirmationWindowSeconds {
            let dropped = p.speedBefore.map { speed <= $0 * (1 - parameters.speedDropFraction) } ?? false
            if speed <= parameters.stopSpeed || dropped {
                return emit(p, decidedAt: t, last: DetectionPhase(.stopped, at: t), fallback: false)
            }
        }
        // Moving on: fast again once the receiver's lag is over, and not sliding to a stop.
        if sinceImpact >= parameters.speedLagSeconds && speed >= parameters.armingSpeed
            && deceleration < parameters.slidingDeceleration
        {
            return cancel()
        }
        return nil
    }

    // MARK: Motion

    public mutating func push(_ frame: MotionFrame) -> DetectionEvent? {
        let t = frame.timestampNanoseconds
        let dt = min(max(frame.samplePeriod, 0), 0.1)  // a gap is not time spent moving or still
        let magnitude = frame.accelerationMagnitude.isFinite ? frame.accelerationMagnitude : 0
        let rate = frame.angularRateMagnitude.isFinite ? frame.angularRateMagnitude : 0
        let alpha = dt / (parameters.motionSmoothingSeconds + dt)
        activity += alpha * (abs(magnitude - 1) - activity)
        angularRate += alpha * (rate - angularRate)
        let a = frame.acceleration
        if a.x.isFinite, a.y.isFinite, a.z.isFinite { gravity += alpha * (a - gravity) }

        // A clipped reading was at least full scale.
        let effective = frame.saturated ? max(magnitude, parameters.accelerometerFullScale) : magnitude
        // Above full scale no reading reaches the threshold, so measure the run from just below it.
        let level = min(parameters.impactThreshold, 0.9 * parameters.accelerometerFullScale)
        var impact = false
        if effective >= level || frame.saturated {
            var e = excursion ?? Excursion(peakTime: t)
            if effective > e.peak {
                e.peak = effective
                e.peakTime = t
            }
            e.saturated = e.saturated || frame.saturated
            e.seconds += dt
            e.deltaV += max(magnitude - 1, 0) * 9.806_65 * dt
            excursion = e
            impact = e.peak >= parameters.impactThreshold
                || (e.saturated && (e.seconds >= parameters.saturatedImpactSeconds || e.deltaV >= parameters.impactDeltaV))
        } else {
            excursion = nil
            if pending == nil, frame.tiltDegrees.isFinite {
                // The trunk angle of normal riding, to tell "rides on" from "thrown off" later.
                let slow = dt / (2 + dt)
                tiltBefore = tiltBefore.map { $0 + slow * (frame.tiltDegrees - $0) } ?? frame.tiltDegrees
            }
            if pending == nil {
                gravityBefore = gravityBefore.map { $0 + dt / (2 + dt) * (gravity - $0) } ?? gravity
            }
        }

        if impact, var e = excursion {
            if pending == nil, !e.consumed {
                startConfirmation(e, at: t)
            }
            if var p = pending {
                // Tumbling brings more hits: the event keeps the strongest.
                if e.peak > p.peak {
                    p.peak = e.peak
                    p.impactTime = e.peakTime
                }
                p.saturated = p.saturated || e.saturated
                p.deltaV = max(p.deltaV, e.deltaV)
                pending = p
            }
            e.consumed = true
            excursion = e
        }

        guard var p = pending else { return nil }
        let sinceImpact = Double(t - p.startTime) * 1e-9
        p.peakAngularRate = max(p.peakAngularRate, rate)
        if frame.tiltDegrees.isFinite { p.tilt = frame.tiltDegrees }
        let calm = excursion == nil
        if calm && activity <= parameters.stillAcceleration && angularRate <= parameters.stillAngularRate {
            p.stillSeconds += Double(dt)
            if p.stillSince == nil { p.stillSince = t }
        } else {
            p.stillSeconds = 0
            p.stillSince = nil
        }
        let upright = p.tiltBefore.map { abs(p.tilt - $0) <= parameters.steadyTiltToleranceDegrees } ?? false
        if calm && upright && angularRate <= parameters.steadyMaximumAngularRate
            && activity >= parameters.steadyMinimumActivity
        {
            p.steadySeconds += Double(dt)
        } else {
            p.steadySeconds = 0
        }
        pending = p

        if p.steadySeconds >= parameters.steadyMotionSeconds { return cancel() }
        let lost = isGNSSLost(at: t)
        // Stillness decides when there is no speed to decide (never had one, or lost since), once
        // the body lies or hangs differently from how it rode (gravity seen from another side).
        let thrown = p.gravityBefore.map { Self.degrees(between: gravity, $0) >= parameters.fallbackTiltChangeDegrees } ?? true
        if p.mode == .stillness || lost, thrown, p.stillSeconds >= parameters.fallbackStillSeconds,
            let since = p.stillSince
        {
            return emit(p, decidedAt: t, last: DetectionPhase(.resting, at: since), fallback: true)
        }
        let deadline = p.mode == .stillness
            ? parameters.fallbackWindowSeconds
            : max(parameters.confirmationWindowSeconds, parameters.fallbackWindowSeconds)
        if sinceImpact > deadline {
            return cancel()
        }
        // GNSS works but showed no stop within the window: the vehicle went on.
        if p.mode == .speed, !lost, sinceImpact > parameters.confirmationWindowSeconds {
            return cancel()
        }
        return nil
    }

    /// Forgets everything, as after a restart.
    public mutating func reset() {
        self = CrashDetector(validated: parameters)
    }

    // MARK: Steps

    private init(validated parameters: CrashDetectorParameters) {
        self.parameters = parameters
    }

    private mutating func startConfirmation(_ e: Excursion, at t: Int64) {
        let mode: Confirmation.Mode
        if isArmed(at: t) {
            mode = .speed
        } else if isGNSSLost(at: t) {
            mode = .stillness
        } else {
            return  // GNSS works and says slow: not a vehicle crash (a fall detector's case)
        }
        pending = Confirmation(
            mode: mode, startTime: t, impactTime: e.peakTime, armedSince: mode == .speed ? armedSince : nil, peak: e.peak,
            saturated: e.saturated, deltaV: e.deltaV, peakAngularRate: 0, tiltBefore: tiltBefore,
            gravityBefore: gravityBefore,
            speedBefore: mode == .speed ? lastSpeed : nil, tilt: tiltBefore ?? 0)
    }

    /// The angle between two vectors, degrees (0 when either is zero).
    private static func degrees(between a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let n = ((a * a).sum() * (b * b).sum()).squareRoot()
        guard n > 0, n.isFinite else { return 0 }
        return acos(min(max((a * b).sum() / n, -1), 1)) * 180 / Float.pi
    }

    private mutating func cancel() -> DetectionEvent? {
        pending = nil
        return nil
    }

    private mutating func emit(
        _ p: Confirmation, decidedAt t: Int64, last: DetectionPhase, fallback: Bool
    ) -> DetectionEvent {
        pending = nil
        // After a crash the vehicle must be seen moving again before another one can be confirmed.
        armedSince = nil
        lastArmedTime = nil

        var evidence = DetectionEvidence()
        // The measured peak: with `saturated` it says the real one was higher.
        evidence.peakAcceleration = p.saturated ? max(p.peak, parameters.accelerometerFullScale) : p.peak
        evidence.saturated = p.saturated
        evidence.peakAngularRate = p.peakAngularRate
        evidence.tiltDegrees = p.tilt
        if let before = p.gravityBefore { evidence.tiltChangeDegrees = Self.degrees(between: gravity, before) }
        if p.stillSeconds > 0 { evidence.stillSeconds = Float(p.stillSeconds) }
        evidence.speedBefore = p.speedBefore
        evidence.speedAfter = p.speedAfter

        var phases: [DetectionPhase] = []
        phases.reserveCapacity(3)
        if let armed = p.armedSince, armed <= p.impactTime { phases.append(DetectionPhase(.armed, at: armed)) }
        phases.append(DetectionPhase(.impact, at: p.impactTime))
        phases.append(last)

        return DetectionEvent(
            kind: .crash, detector: Self.name, confidence: confidence(p, fallback: fallback), timestampNanoseconds: t,
            phases: phases, evidence: evidence)
    }

    /// 0…1 from how far each piece of evidence exceeds its threshold: the impact (full marks at 4×
    /// the threshold), the speed before (full at 2× arming speed) and how complete the stop is.
    /// Speed-confirmed events lie in 0.5…1, stillness-only ones in 0…`fallbackConfidence`.
    private func confidence(_ p: Confirmation, fallback: Bool) -> Float {
        func clamp(_ x: Float) -> Float { x.isFinite ? min(max(x, 0), 1) : 0 }
        var ratio = p.peak / parameters.impactThreshold
        if p.saturated { ratio = max(ratio, p.deltaV / parameters.impactDeltaV) }
        let impact = clamp(log2(max(ratio, 1)) / 2)
        if fallback {
            let still = clamp(Float(p.stillSeconds / (2 * parameters.fallbackStillSeconds)))
            return parameters.fallbackConfidence * (0.5 + 0.25 * (impact + still))
        }
        var speed: Float = 0, stop: Float = 0
        if let before = p.speedBefore {
            speed = clamp(Float(before / parameters.armingSpeed) - 1)
            if let after = p.speedAfter, before > 0 { stop = clamp(Float(1 - after / before)) }
        }
        return 0.5 + 0.5 * (impact + speed + stop) / 3
    }
}

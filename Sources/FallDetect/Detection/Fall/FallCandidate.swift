#if canImport(Glibc)
import Glibc
#endif

/// An impact worth judging, with the measurements of the fall model's phases around it, taken
/// when the posture window after the impact closes. Both fall detectors judge these: the
/// multiphase one by its rules, the learned one by its model.
public struct FallCandidate: Sendable, Hashable {
    /// Largest |a| of the impact, g.
    public var peakAcceleration: Float
    /// True when the accelerometer clipped during the impact.
    public var saturated: Bool
    /// Smallest |a| in the 1.5 s before the impact (the falling span), g: near 0 in a free fall.
    public var minimumAccelerationBefore: Float
    /// Seconds in the falling span with |a| under the free-fall threshold.
    public var lowAccelerationSeconds: Float
    /// Mean trunk tilt from 2.5 s to 1.5 s before the impact, degrees: the posture the fall began from.
    public var tiltBefore: Float
    /// Mean trunk tilt in the posture window after the impact, degrees.
    public var tiltAfter: Float
    /// Largest trunk tilt in the posture window, degrees.
    public var maximumTiltAfter: Float
    /// Trunk tilt when the window closes, degrees (still rising in a backward fall).
    public var tiltAtDecision: Float
    /// Fastest downward vertical velocity in the falling span, m/s (negative down).
    public var minimumVerticalVelocity: Float
    /// Largest |ω| from the falling span's start to just after the impact, °/s.
    public var peakAngularRate: Float
    /// Standard deviation of |a| in the posture window, g: small when the body came to rest.
    public var motionAfter: Float
    /// Mean ||a| − 1 g| from 3 s to 0.5 s before the impact, g: how busy the body was before
    /// (jogging and stairs are busy; a fall from standing or sitting starts calm).
    public var activityBefore: Float
    /// Angle between the body's up direction before the fall (2.5 s to 1.5 s before) and in the
    /// posture window, degrees: how far the body turned, whichever way.
    public var attitudeChange: Float
    /// Largest |ω| in the posture window, °/s: rolling or struggling after the impact.
    public var peakAngularRateAfter: Float
    /// Smallest trunk tilt from 3 s to 1 s before the impact, degrees: at 60° and more the body
    /// lay the whole time. 0 when unknown (the stream's first seconds, while the AHRS settles).
    public var minimumTiltBefore: Float
    /// Timestamps on the samples' clock.
    public var fallingStartNanoseconds: Int64
    public var impactNanoseconds: Int64
    public var decisionNanoseconds: Int64

    public init(
        peakAcceleration: Float, saturated: Bool, minimumAccelerationBefore: Float, lowAccelerationSeconds: Float,
        tiltBefore: Float, tiltAfter: Float, maximumTiltAfter: Float, tiltAtDecision: Float, minimumVerticalVelocity: Float, peakAngularRate: Float,
        motionAfter: Float, activityBefore: Float, attitudeChange: Float = 0, peakAngularRateAfter: Float = 0, minimumTiltBefore: Float = 0,
        fallingStartNanoseconds: Int64, impactNanoseconds: Int64,
        decisionNanoseconds: Int64
    ) {
        self.peakAcceleration = peakAcceleration
        self.saturated = saturated
        self.minimumAccelerationBefore = minimumAccelerationBefore
        self.lowAccelerationSeconds = lowAccelerationSeconds
        self.tiltBefore = tiltBefore
        self.tiltAfter = tiltAfter
        self.maximumTiltAfter = maximumTiltAfter
        self.tiltAtDecision = tiltAtDecision
        self.minimumVerticalVelocity = minimumVerticalVelocity
        self.peakAngularRate = peakAngularRate
        self.motionAfter = motionAfter
        self.activityBefore = activityBefore
        self.attitudeChange = attitudeChange
        self.peakAngularRateAfter = peakAngularRateAfter
        self.minimumTiltBefore = minimumTiltBefore
        self.fallingStartNanoseconds = fallingStartNanoseconds
        self.impactNanoseconds = impactNanoseconds
        self.decisionNanoseconds = decisionNanoseconds
    }

    /// True when the body lay throughout the seconds before (`minimumTiltBefore` at or above
    /// `lyingTilt`) and never dropped faster than `dropVelocity`: turning over in bed, not a fall.
    /// A fall out of bed drops the hips 0.2–0.6 m and reads −1.5 m/s and faster; turning over
    /// reads −1.1 m/s at most (`FallCandidateSettings.lyingDropVelocity`).
    public func isTurnWhileLying(lyingTilt: Float, dropVelocity: Float) -> Bool {
        minimumTiltBefore >= lyingTilt && minimumVerticalVelocity > dropVelocity
    }

    /// Tilt after minus tilt before, degrees.
    public var tiltChange: Float { tiltAfter - tiltBefore }

    /// The measurements as the learned model reads them, in `featureNames` order. Logarithms
    /// for the quantities that span decades (impact g, angular rate).
    public var features: FallFeatureVector {
        var v = FallFeatureVector()
        v[0] = log(max(peakAcceleration, 1e-3))
        v[1] = minimumAccelerationBefore
        v[2] = tiltBefore
        v[3] = tiltAfter
        v[4] = tiltChange
        v[5] = log(peakAngularRate + 1)
        v[6] = motionAfter
        v[7] = minimumVerticalVelocity
        v[8] = activityBefore
        v[9] = tiltAtDecision
        v[10] = maximumTiltAfter
        v[11] = lowAccelerationSeconds
        v[12] = attitudeChange
        v[13] = log(peakAngularRateAfter + 1)
        return v
    }

    /// What each entry of `features` is, with its unit.
    public static let featureNames = [
        "ln peak |a| (g)", "min |a| before (g)", "tilt before (°)", "tilt after (°)", "tilt change (°)",
        "ln(1 + peak |ω| (°/s))", "std |a| after (g)", "min vertical velocity (m/s)", "activity before (g)",
        "tilt at decision (°)", "max tilt after (°)", "seconds under free-fall threshold (s)", "attitude change (°)",
        "ln(1 + peak |ω| after (°/s))",
    ]

    /// The evidence an alert shows.
    public var evidence: DetectionEvidence {
        var e = DetectionEvidence()
        e.peakAcceleration = peakAcceleration
        e.saturated = saturated
        e.minimumAcceleration = minimumAccelerationBefore
        e.freeFallSeconds = lowAccelerationSeconds
        e.verticalVelocity = minimumVerticalVelocity
        e.peakAngularRate = peakAngularRate
        e.tiltDegrees = tiltAfter
        e.tiltChangeDegrees = tiltChange
        return e
    }

    /// The fall model's phases that this candidate shows.
    public var phases: [DetectionPhase] {
        [
            DetectionPhase(.falling, at: fallingStartNanoseconds), DetectionPhase(.impact, at: impactNanoseconds),
            DetectionPhase(.postureChange, at: decisionNanoseconds),
        ]
    }
}

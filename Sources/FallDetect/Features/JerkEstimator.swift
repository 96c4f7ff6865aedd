import CFusion

/// Jerk from consecutive accelerometer samples (g/s).
///
/// `axes` is the per-axis finite difference ÷ dt and `magnitude` its length: it responds to a
/// change of direction at constant |a| (a body rotating during a fall), which the derivative of
/// |a| hides; `magnitudeRate` is that signed derivative of |a|. Both are 0 for the first sample.
public struct JerkEstimator: Sendable {
    public struct Jerk: Sendable, Equatable {
        public var axes: SIMD3<Float>
        public var magnitude: Float
        public var magnitudeRate: Float
    }

    var state = cfusion_jerk_state()

    public init() {}

    public mutating func push(_ acceleration: SIMD3<Float>, samplePeriod: Float) -> Jerk {
        let a = acceleration
        let j = cfusion_jerk_push(&state, cfusion_vec3(x: a.x, y: a.y, z: a.z), samplePeriod)
        return Jerk(axes: SIMD3(j.axes.x, j.axes.y, j.axes.z), magnitude: j.norm, magnitudeRate: j.smv_rate)
    }

    public mutating func reset() { cfusion_jerk_reset(&state) }

    /// |a| = sqrt(x² + y² + z²), the signal magnitude vector, in the unit of `a`.
    public static func signalMagnitude(_ a: SIMD3<Float>) -> Float {
        cfusion_feat_smv(cfusion_vec3(x: a.x, y: a.y, z: a.z))
    }
}

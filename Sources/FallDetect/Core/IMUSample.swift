import CFusion

/// One inertial reading in the body frame: the 32-byte record of the hot path.
///
/// Units: `timestampNanoseconds` counts a monotonic clock (its origin is the recording's or the
/// process's, never wall time); acceleration is in g (1 g = 9.80665 m/s²); angular rate is in
/// degrees per second. The layout is `cfusion_sample`'s, so buffers pass to C without copying.
public struct IMUSample: Sendable, Equatable {
    var raw: cfusion_sample

    public init(
        timestampNanoseconds: Int64,
        acceleration: SIMD3<Float>,
        angularRate: SIMD3<Float> = .zero
    ) {
        raw = cfusion_sample(
            timestamp_ns: timestampNanoseconds,
            ax: acceleration.x, ay: acceleration.y, az: acceleration.z,
            gx: angularRate.x, gy: angularRate.y, gz: angularRate.z
        )
    }

    init(raw: cfusion_sample) { self.raw = raw }

    public var timestampNanoseconds: Int64 {
        get { raw.timestamp_ns }
        set { raw.timestamp_ns = newValue }
    }

    /// Acceleration in g.
    public var acceleration: SIMD3<Float> {
        get { SIMD3(raw.ax, raw.ay, raw.az) }
        set { (raw.ax, raw.ay, raw.az) = (newValue.x, newValue.y, newValue.z) }
    }

    /// Angular rate in degrees per second.
    public var angularRate: SIMD3<Float> {
        get { SIMD3(raw.gx, raw.gy, raw.gz) }
        set { (raw.gx, raw.gy, raw.gz) = (newValue.x, newValue.y, newValue.z) }
    }

    /// |a| in g: the signal magnitude vector.
    public var accelerationMagnitude: Float {
        (raw.ax * raw.ax + raw.ay * raw.ay + raw.az * raw.az).squareRoot()
    }

    public static func == (lhs: IMUSample, rhs: IMUSample) -> Bool {
        lhs.raw.timestamp_ns == rhs.raw.timestamp_ns
            && lhs.acceleration == rhs.acceleration
            && lhs.angularRate == rhs.angularRate
    }
}

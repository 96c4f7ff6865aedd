import CFusion

/// The attitude and what follows from it after an update. Accelerations are in g.
public struct AHRSOutput: Sendable, Equatable {
    public var quaternion: Quaternion
    /// Unit "up" in the body frame (what a still accelerometer reads).
    public var gravity: SIMD3<Float>
    /// Accelerometer minus gravity, body frame.
    public var linearAcceleration: SIMD3<Float>
    /// Accelerometer in the earth frame minus (0, 0, 1); z is vertical, up positive.
    public var earthAcceleration: SIMD3<Float>
    /// Angle between body +z and earth up, 0...180°: 0 upright, 90 lying.
    public var tiltDegrees: Float
    /// Angle between the accelerometer and predicted gravity at the last accelerometer reading
    /// (0...90°; larger errors read 90).
    public var accelerationErrorDegrees: Float
    public var flags: AHRSFlags

    init(_ o: cfusion_ahrs_output) {
        quaternion = Quaternion(o.quaternion)
        gravity = SIMD3(o.gravity.x, o.gravity.y, o.gravity.z)
        linearAcceleration = SIMD3(o.linear_body.x, o.linear_body.y, o.linear_body.z)
        earthAcceleration = SIMD3(o.linear_earth.x, o.linear_earth.y, o.linear_earth.z)
        tiltDegrees = o.tilt_deg
        accelerationErrorDegrees = o.acceleration_error_deg
        flags = AHRSFlags(o.flags)
    }
}

/// One sample as the detectors see it: the reading and what fusion and the streaming filters
/// derived from it, all in units. `MotionFrameBuilder` makes one per IMU sample.
public struct MotionFrame: Sendable, Equatable {
    /// On the samples' monotonic clock.
    public var timestampNanoseconds: Int64
    /// Seconds since the previous sample (the nominal period for the first).
    public var samplePeriod: Float
    /// Body-frame acceleration, g.
    public var acceleration: SIMD3<Float>
    /// |a|, g: 1 at rest, near 0 in free fall, several g at an impact.
    public var accelerationMagnitude: Float
    /// |ω|, °/s.
    public var angularRateMagnitude: Float
    /// Trunk angle from upright from the AHRS, degrees: 0 upright, 90 lying.
    public var tiltDegrees: Float
    /// Earth-frame vertical acceleration with gravity and the still body's reading in its posture
    /// removed (`StationaryBiasEstimator`), g (up positive).
    public var verticalAcceleration: Float
    /// Vertical velocity from the leaky integrator, m/s (up positive).
    public var verticalVelocity: Float
    /// True when an accelerometer axis reached the sensor's full scale (the true |a| was higher).
    public var saturated: Bool
    /// Unit "up" in the body frame from the AHRS: which way the body lies, not just how far
    /// from upright (a fall onto the side and one onto the back have the same tilt).
    public var gravity: SIMD3<Float>
    /// The first frame after the samples broke off (a FIFO overflow, a chip set up again): what
    /// the detectors measured before says nothing of the time between.
    public var afterGap: Bool

    public init(
        timestampNanoseconds: Int64, samplePeriod: Float, acceleration: SIMD3<Float>, angularRateMagnitude: Float,
        tiltDegrees: Float, verticalAcceleration: Float, verticalVelocity: Float, saturated: Bool, gravity: SIMD3<Float> = SIMD3(0, 0, 1),
        afterGap: Bool = false
    ) {
        self.timestampNanoseconds = timestampNanoseconds
        self.samplePeriod = samplePeriod
        self.acceleration = acceleration
        accelerationMagnitude = (acceleration * acceleration).sum().squareRoot()
        self.angularRateMagnitude = angularRateMagnitude
        self.tiltDegrees = tiltDegrees
        self.verticalAcceleration = verticalAcceleration
        self.verticalVelocity = verticalVelocity
        self.saturated = saturated
        self.gravity = gravity
        self.afterGap = afterGap
    }
}

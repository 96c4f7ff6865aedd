/// The measurements behind a detection, each in its unit and nil when the detector did not
/// measure it. Enough for a person reading an alert to judge it: "5.8 g impact, lying at 84°,
/// still for 10 s".
public struct DetectionEvidence: Sendable, Hashable {
    /// Largest |a| around the impact, g. Saturated when the sensor's full scale was reached.
    public var peakAcceleration: Float?
    /// True when the accelerometer clipped, so the real peak was higher than `peakAcceleration`.
    public var saturated = false
    /// Smallest |a| before the impact, g (near 0 in free fall).
    public var minimumAcceleration: Float?
    /// Seconds |a| stayed below the free-fall threshold.
    public var freeFallSeconds: Float?
    /// Fastest downward vertical velocity before the impact, m/s (negative is down).
    public var verticalVelocity: Float?
    /// Largest angular rate, °/s.
    public var peakAngularRate: Float?
    /// Trunk angle from upright after the event, degrees (0 upright, 90 lying).
    public var tiltDegrees: Float?
    /// Change of that angle from before the fall to after it, degrees.
    public var tiltChangeDegrees: Float?
    /// Seconds of stillness observed after the event.
    public var stillSeconds: Float?
    /// Ground speed before the event, m/s (crash).
    public var speedBefore: Double?
    /// Ground speed after the event, m/s (crash).
    public var speedAfter: Double?

    public init() {}
}

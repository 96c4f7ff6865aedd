/// The multiphase detector's thresholds: the fall model's phases as rules, each a named value
/// with its unit. Defaults were chosen on the SisFall development subjects (README, "Detectors").
public struct MultiphaseFallParameters: Sendable, Hashable {
    /// Falling: the smallest |a| in the 1.5 s before the impact must be at most this, g. A body
    /// that drops is briefly lighter than 1 g; walking and sitting rarely go under 0.8 g.
    public var maximumFallingAcceleration: Float
    /// Impact: the peak |a| must reach this, g.
    public var minimumImpact: Float
    /// Posture: the largest trunk tilt in the posture window must reach this, degrees from
    /// upright (sitting leans 10–40°, lying 70–110°) …
    public var lyingTilt: Float
    /// Posture change: tilt after minus tilt before must reach this, degrees. Turning over while
    /// already lying changes little.
    public var minimumTiltChange: Float
    /// … or the body's up direction must have turned at least this far, degrees, whatever the
    /// tilt (a backward fall that ends half-sitting).
    public var minimumAttitudeChange: Float

    public init(
        maximumFallingAcceleration: Float = 0.9, minimumImpact: Float = 2.4, lyingTilt: Float = 75, minimumTiltChange: Float = 15,
        minimumAttitudeChange: Float = 55
    ) {
        self.maximumFallingAcceleration = maximumFallingAcceleration
        self.minimumImpact = minimumImpact
        self.lyingTilt = lyingTilt
        self.minimumTiltChange = minimumTiltChange
        self.minimumAttitudeChange = minimumAttitudeChange
    }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(
            maximumFallingAcceleration.isFinite && maximumFallingAcceleration > 0 && maximumFallingAcceleration <= 1,
            "maximumFallingAcceleration", "must lie in (0, 1] g, got \(maximumFallingAcceleration)")
        try FallDetectError.require(minimumImpact.isFinite && minimumImpact > 1, "minimumImpact", "must exceed 1 g, got \(minimumImpact)")
        try FallDetectError.require(lyingTilt.isFinite && lyingTilt > 0 && lyingTilt < 180, "lyingTilt", "must lie in (0, 180)°, got \(lyingTilt)")
        try FallDetectError.require(
            minimumTiltChange.isFinite && minimumTiltChange > -180 && minimumTiltChange < 180, "minimumTiltChange",
            "must lie in (-180, 180)°, got \(minimumTiltChange)")
        try FallDetectError.require(
            minimumAttitudeChange.isFinite && minimumAttitudeChange > 0 && minimumAttitudeChange <= 180, "minimumAttitudeChange",
            "must lie in (0, 180]°, got \(minimumAttitudeChange)")
    }
}

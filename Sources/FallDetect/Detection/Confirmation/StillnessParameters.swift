/// The confirmation stage after a fall detection: how long the wearer must lie still before the
/// alert goes out without waiting, and what counts as getting up. Configurable apart from the
/// detectors, because it trades latency for false alarms and the right trade depends on the
/// wearer (a person who cannot get up after a fall is the case it exists for).
public struct StillnessParameters: Sendable, Hashable {
    /// Seconds of continuous stillness that confirm the fall.
    public var stillSeconds: Float
    /// Seconds after the detection to wait for that stillness; then the outcome is "timed out".
    public var windowSeconds: Float
    /// Still while the spread of |a| (exponential, 0.5 s) stays under this, g.
    public var maximumDeviation: Float
    /// … and |ω| under this, °/s.
    public var maximumAngularRate: Float
    /// Upright when the trunk is within this many degrees of vertical.
    public var uprightTilt: Float
    /// Seconds upright that mean the wearer got up.
    public var uprightSeconds: Float

    public init(
        stillSeconds: Float = 10, windowSeconds: Float = 60, maximumDeviation: Float = 0.1, maximumAngularRate: Float = 40,
        uprightTilt: Float = 35, uprightSeconds: Float = 3
    ) {
        self.stillSeconds = stillSeconds
        self.windowSeconds = windowSeconds
        self.maximumDeviation = maximumDeviation
        self.maximumAngularRate = maximumAngularRate
        self.uprightTilt = uprightTilt
        self.uprightSeconds = uprightSeconds
    }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.requireNonNegative(stillSeconds, "stillSeconds")
        try FallDetectError.require(
            windowSeconds.isFinite && windowSeconds >= stillSeconds, "windowSeconds",
            "must be at least stillSeconds (\(stillSeconds) s), got \(windowSeconds)")
        try FallDetectError.requirePositive(maximumDeviation, "maximumDeviation")
        try FallDetectError.requirePositive(maximumAngularRate, "maximumAngularRate")
        try FallDetectError.require(uprightTilt.isFinite && uprightTilt > 0 && uprightTilt < 90, "uprightTilt", "must lie in (0, 90)°, got \(uprightTilt)")
        try FallDetectError.requirePositive(uprightSeconds, "uprightSeconds")
    }
}

/// When a device counts as taken off: its direction of gravity, low-passed, holds stiller than
/// any worn device's for long enough.
///
/// A body that wears the device moves it all the time, even lying still: breathing tilts a belt
/// device to and fro. The wander is the spread of the low-passed (1 Hz) unit vector of gravity
/// over a window of 10 s, in degrees. On HAPT's development users lying still (55 whole windows,
/// 15 people) it was at least 0.44° in every window (0.52° at the 5th percentile, 2.5° at the
/// median); the same phone resting on a table after the recording read 0.25–0.33° (the sensor
/// noise the low-pass leaves). The bound sits between the two. These numbers come from that one
/// phone and those 15 people, not from the literature: a device with another accelerometer may
/// need another bound, which is why it is a parameter. The only removal in those recordings that
/// rests long enough rests for 50 s between two handlings, hence 40 s to call the device off.
public struct WearParameters: Sendable, Hashable {
    /// Low-pass cutoff for the acceleration, Hz: breathing (0.1–0.5 Hz) passes, noise mostly not.
    public var lowPassHertz: Double
    /// Window over which the wander is measured, s.
    public var windowSeconds: Double
    /// Largest wander of the low-passed direction of gravity in a window that still counts as
    /// resting off the body, degrees.
    public var maximumWanderDegrees: Float
    /// Quiet windows in a row for this long make the device off, s.
    public var offSeconds: Double

    public init(lowPassHertz: Double = 1, windowSeconds: Double = 10, maximumWanderDegrees: Float = 0.35, offSeconds: Double = 40) {
        self.lowPassHertz = lowPassHertz
        self.windowSeconds = windowSeconds
        self.maximumWanderDegrees = maximumWanderDegrees
        self.offSeconds = offSeconds
    }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(lowPassHertz.isFinite && lowPassHertz > 0 && lowPassHertz <= 5, "lowPassHertz", "must lie in (0, 5] Hz, got \(lowPassHertz)")
        try FallDetectError.require(windowSeconds.isFinite && windowSeconds >= 2 && windowSeconds <= 60, "windowSeconds", "must lie in 2…60 s, got \(windowSeconds)")
        try FallDetectError.require(
            maximumWanderDegrees.isFinite && maximumWanderDegrees > 0 && maximumWanderDegrees < 5, "maximumWanderDegrees",
            "must lie in (0, 5)°, got \(maximumWanderDegrees)")
        try FallDetectError.require(
            offSeconds.isFinite && offSeconds >= windowSeconds && offSeconds <= 3600, "offSeconds",
            "must lie between windowSeconds (\(windowSeconds) s) and 3600 s, got \(offSeconds)")
    }
}

/// The header of a recording: what recorded it and when, and whether it is real.
public struct RecordingInfo: Sendable, Hashable {
    public var sensor: SensorInfo
    /// Wall-clock time at timestamp zero, nanoseconds since 1970-01-01 UTC (0 when unknown).
    public var startUTCNanoseconds: Int64
    /// A short name: "walking", "SisFall F01 SA01 R01", a user's session id.
    public var title: String
    /// True for generated traces; every tool that shows results from one says so.
    public var isSynthetic: Bool

    public init(sensor: SensorInfo, startUTCNanoseconds: Int64 = 0, title: String, isSynthetic: Bool = false) {
        self.sensor = sensor
        self.startUTCNanoseconds = startUTCNanoseconds
        self.title = title
        self.isSynthetic = isSynthetic
    }
}

/// One thing to look at in the data: a false alarm, a missed fall or a detection at a removal,
/// named by its recording (or trial) and, where known, its time from the recording's start.
public struct ReportEvent: Sendable, Hashable, Codable {
    public var recording: String
    public var seconds: Double?
    public var activity: String

    public init(recording: String, seconds: Double? = nil, activity: String) {
        self.recording = recording
        self.seconds = seconds
        self.activity = activity
    }
}

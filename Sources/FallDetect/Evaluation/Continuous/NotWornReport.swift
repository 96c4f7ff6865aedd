/// A time the wear monitor said the device was taken off, placed against the labels: during a
/// removal tail (right) or during daily activity (wrong: the wearer had it on).
public struct NotWornReport: Sendable, Hashable {
    public var recording: String
    /// Seconds from the recording's start when it was decided, and since when the device rested.
    public var seconds: Double
    public var sinceSeconds: Double
    /// True when it lies in the recording's removal tail.
    public var duringRemoval: Bool

    public init(recording: String, seconds: Double, sinceSeconds: Double, duringRemoval: Bool) {
        self.recording = recording
        self.seconds = seconds
        self.sinceSeconds = sinceSeconds
        self.duringRemoval = duringRemoval
    }
}

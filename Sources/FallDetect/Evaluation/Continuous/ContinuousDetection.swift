/// One detection in a continuous recording, placed against its labels.
public struct ContinuousDetection: Sendable, Hashable {
    public enum Place: String, Sendable, Hashable {
        /// Inside a labelled fall (or up to the online protocol's tolerance after it).
        case fall
        /// During the wearer's daily activities: a false alarm.
        case activity
        /// After the last labelled activity, while the device is taken off and set down.
        case removal
    }

    public var recording: String
    public var subject: String
    /// Seconds from the recording's start.
    public var seconds: Double
    public var kind: DetectionKind
    public var detector: String
    public var place: Place
    /// The labelled activity at the detection ("stand-to-lie"), or "removal".
    public var activity: String

    public init(recording: String, subject: String, seconds: Double, kind: DetectionKind, detector: String, place: Place, activity: String) {
        self.recording = recording
        self.subject = subject
        self.seconds = seconds
        self.kind = kind
        self.detector = detector
        self.place = place
        self.activity = activity
    }
}

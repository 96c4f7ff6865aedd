/// Detections during one activity: for trials, how many of its trials had one (a fall detected,
/// or an ADL false alarm); for continuous recordings, how many detections fell in it (`trials` nil).
public struct ReportActivity: Sendable, Hashable, Codable {
    public var activity: String
    /// A longer name for a code ("D01 walking slowly"), when the dataset has one.
    public var summary: String?
    public var isFall: Bool
    public var trials: Int?
    public var detections: Int

    public init(activity: String, summary: String? = nil, isFall: Bool, trials: Int? = nil, detections: Int) {
        self.activity = activity
        self.summary = summary
        self.isFall = isFall
        self.trials = trials
        self.detections = detections
    }
}

/// Everything the report shows of one detector on one dataset.
public struct ReportDetector: Sendable, Hashable, Codable {
    public var name: String
    public var figures: ReportFigures
    /// The threshold sweep, empty when the run made none.
    public var roc: [ReportROCPoint]
    /// Where the detector ran.
    public var operatingPoint: ReportROCPoint?
    public var activities: [ReportActivity]
    /// Seconds from fall onset to each detected fall's detection.
    public var latencies: [Double]
    public var falseAlarms: [ReportEvent]
    public var missedFalls: [ReportEvent]
    public var removalDetections: [ReportEvent]

    public init(
        name: String, figures: ReportFigures, roc: [ReportROCPoint] = [], operatingPoint: ReportROCPoint? = nil, activities: [ReportActivity] = [],
        latencies: [Double] = [], falseAlarms: [ReportEvent] = [], missedFalls: [ReportEvent] = [], removalDetections: [ReportEvent] = []
    ) {
        self.name = name
        self.figures = figures
        self.roc = roc
        self.operatingPoint = operatingPoint
        self.activities = activities
        self.latencies = latencies
        self.falseAlarms = falseAlarms
        self.missedFalls = missedFalls
        self.removalDetections = removalDetections
    }
}

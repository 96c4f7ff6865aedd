/// What one detector configuration did over a set of continuous recordings.
public struct ContinuousResult: Sendable {
    /// The fall judge the profile ran ("learned", "multiphase").
    public var detector: String
    public var profile: String
    public var recordings: Int
    /// Hours of labelled daily activity (each recording up to its removal).
    public var activityHours: Double
    /// Recordings that end in a removal tail, and the tails' total seconds.
    public var removals: Int
    public var removalSeconds: Double
    /// Labelled falls in the recordings and how many a detection found.
    public var falls: Int
    public var fallsDetected: Int
    /// Every detection, in recording order.
    public var detections: [ContinuousDetection]
    /// Every time the wear monitor called the device off.
    public var notWorn: [NotWornReport] = []

    public init(
        detector: String, profile: String, recordings: Int = 0, activityHours: Double = 0, removals: Int = 0, removalSeconds: Double = 0, falls: Int = 0,
        fallsDetected: Int = 0, detections: [ContinuousDetection] = []
    ) {
        self.detector = detector
        self.profile = profile
        self.recordings = recordings
        self.activityHours = activityHours
        self.removals = removals
        self.removalSeconds = removalSeconds
        self.falls = falls
        self.fallsDetected = fallsDetected
        self.detections = detections
    }

    /// Recordings whose removal the wear monitor saw (the device rested long enough), and the
    /// times it called a worn device off during daily activity.
    public var removalsSeenOff: Int { Set(notWorn.filter(\.duringRemoval).map(\.recording)).count }
    public var notWornDuringActivity: [NotWornReport] { notWorn.filter { !$0.duringRemoval } }

    /// Adds another set of recordings' outcome (another fold).
    public mutating func merge(_ other: ContinuousResult) {
        recordings += other.recordings
        activityHours += other.activityHours
        removals += other.removals
        removalSeconds += other.removalSeconds
        falls += other.falls
        fallsDetected += other.fallsDetected
        detections += other.detections
        notWorn += other.notWorn
    }

    /// Detections during daily activity.
    public var falseAlarms: [ContinuousDetection] { detections.filter { $0.place == .activity } }
    /// Detections while the device was being taken off and set down.
    public var removalDetections: [ContinuousDetection] { detections.filter { $0.place == .removal } }
    /// Recordings with at least one detection in their removal tail.
    public var removalsWithDetection: Int { Set(removalDetections.map(\.recording)).count }

    public var falseAlarmsPerHour: Double? { activityHours > 0 ? Double(falseAlarms.count) / activityHours : nil }
    /// Exact Poisson 95 % interval of the false-alarm rate.
    public var falseAlarmsPerHourInterval: ClosedRange<Double>? {
        activityHours > 0 ? FigureIntervals.poissonRate(events: falseAlarms.count, exposure: activityHours) : nil
    }

    /// False alarms per labelled activity.
    public var falseAlarmsPerActivity: [String: Int] {
        falseAlarms.reduce(into: [:]) { $0[$1.activity, default: 0] += 1 }
    }
}

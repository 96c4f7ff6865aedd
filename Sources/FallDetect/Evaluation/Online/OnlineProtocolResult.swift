/// What the online protocol found for one detector at one operating point.
public struct OnlineProtocolResult: Sendable {
    public var detector: String
    public var threshold: Float
    /// Trials: a fall counts as detected when a detection lands in its window; an ADL trial
    /// counts as a false alarm when any detection lands in it.
    public var counts: ConfusionCounts
    /// Detections in ADL trials (several can land in one trial).
    public var falseAlarms: Int
    /// Detections in fall trials outside their window (before the fall, or long after).
    public var strayDetectionsInFalls: Int
    /// Hours of ADL trials.
    public var adlHours: Double
    /// Seconds from fall onset (first sample labelled FALL) to the detection, per detected fall.
    public var latencies: [Double]
    /// Seconds from fall onset to the decision of the detector, before any confirmation stage:
    /// the same as `latencies` for a detector without one.
    public var detectionLatencies: [Double] = []
    public var byGroup: [SisFallTrialName.Group: OnlineProtocolResult.GroupResult]
    /// The same per subject (`SisFallTrialName.subject`): what `FigureIntervals` resamples, since
    /// one person's trials are not independent of each other.
    public var bySubject: [String: OnlineProtocolResult.GroupResult] = [:]
    /// Per activity code: trials and the trials with a detection (for ADL: false alarms; for
    /// falls: detected).
    public var perActivity: [String: ConfusionCounts]
    /// The ADL trials with a detection and the falls without one, by name, in trial order: what
    /// to look at first.
    public var falseAlarmTrials: [SisFallTrialName] = []
    public var missedFalls: [SisFallTrialName] = []
    /// Every detection in an ADL trial with its time, in trial order: the false alarms one by one.
    public var falseAlarmDetections: [TrialDetection] = []

    public struct GroupResult: Sendable {
        public var counts = ConfusionCounts()
        public var falseAlarms = 0
        public var adlHours: Double = 0
        public var latencies: [Double] = []
        public init() {}
        public var falseAlarmsPerHour: Double? { adlHours > 0 ? Double(falseAlarms) / adlHours : nil }
        public var medianLatency: Double? { OnlineProtocolResult.percentile(latencies, 0.5) }
        public var p95Latency: Double? { OnlineProtocolResult.percentile(latencies, 0.95) }

        /// Adds another set of trials' outcome.
        public mutating func merge(_ other: GroupResult) {
            counts.merge(other.counts)
            falseAlarms += other.falseAlarms
            adlHours += other.adlHours
            latencies += other.latencies
        }
    }

    public var falseAlarmsPerHour: Double? { adlHours > 0 ? Double(falseAlarms) / adlHours : nil }
    public var medianLatency: Double? { Self.percentile(latencies, 0.5) }
    public var p95Latency: Double? { Self.percentile(latencies, 0.95) }
    public var medianDetectionLatency: Double? { Self.percentile(detectionLatencies, 0.5) }
    public var p95DetectionLatency: Double? { Self.percentile(detectionLatencies, 0.95) }

    /// Linear interpolation between closest ranks (numpy's default); nil for no values.
    public static func percentile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}

extension OnlineProtocolResult {
    /// Adds another set of trials' outcome (another fold) to this one.
    public mutating func merge(_ other: OnlineProtocolResult) {
        counts.merge(other.counts)
        falseAlarms += other.falseAlarms
        strayDetectionsInFalls += other.strayDetectionsInFalls
        adlHours += other.adlHours
        latencies += other.latencies
        detectionLatencies += other.detectionLatencies
        for (group, g) in other.byGroup { byGroup[group, default: GroupResult()].merge(g) }
        for (subject, g) in other.bySubject { bySubject[subject, default: GroupResult()].merge(g) }
        for (code, c) in other.perActivity { perActivity[code, default: ConfusionCounts()].merge(c) }
        falseAlarmTrials = (falseAlarmTrials + other.falseAlarmTrials).sorted()
        missedFalls = (missedFalls + other.missedFalls).sorted()
        falseAlarmDetections = (falseAlarmDetections + other.falseAlarmDetections).sorted()
    }
}

/// What one detector configuration did over a trial dataset: one fall or ADL activity a file.
public struct DescribedTrialResult: Sendable {
    public var detector: String
    public var profile: String
    /// A fall trial counts as detected when a detection lies in its labelled fall or up to the
    /// tolerance after it; an ADL trial as a false alarm when any detection lies in it.
    public var counts = ConfusionCounts()
    /// Seconds of the ADL trials over 3600 (samples over the sample rate, as the online protocol).
    public var adlHours: Double = 0
    /// Detections in ADL trials.
    public var falseAlarms: [ContinuousDetection] = []
    /// Detections in fall trials outside their fall window (before the fall, or after it and the
    /// tolerance): not the fall, but not an ADL trial's alarm either.
    public var strayDetectionsInFalls: [ContinuousDetection] = []
    /// Per detected fall, seconds from the fall's onset (its first labelled sample) to the first
    /// detection in its window.
    public var latencies: [Double] = []
    public var missedFalls: [String] = []
    public var falseAlarmTrials: [String] = []

    public init(detector: String, profile: String) {
        self.detector = detector
        self.profile = profile
    }

    public var falseAlarmsPerHour: Double? { adlHours > 0 ? Double(falseAlarms.count) / adlHours : nil }
    public var medianLatency: Double? { OnlineProtocolResult.percentile(latencies, 0.5) }
    public var p95Latency: Double? { OnlineProtocolResult.percentile(latencies, 0.95) }
}

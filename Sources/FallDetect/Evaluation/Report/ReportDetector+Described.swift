extension ReportDetector {
    /// A described trial dataset's detector (`bench --dataset csv`, trials): its figures, the
    /// latencies, the false alarms with their trial and time, and the missed falls.
    public init(described r: DescribedTrialResult) {
        var figures = ReportFigures(hours: r.adlHours, falseAlarms: r.falseAlarms.count)
        figures.falls = r.counts.falls
        figures.adls = r.counts.adls
        figures.trials = r.counts.falls + r.counts.adls
        figures.sensitivity = r.counts.sensitivity
        figures.specificity = r.counts.specificity
        figures.balancedAccuracy = r.counts.balancedAccuracy
        figures.falseAlarmsPerHour = r.falseAlarmsPerHour
        figures.latencyMedian = r.medianLatency
        figures.latencyP95 = r.p95Latency
        self.init(
            name: r.detector, figures: figures, latencies: r.latencies,
            falseAlarms: r.falseAlarms.map { ReportEvent(recording: $0.recording, seconds: $0.seconds, activity: $0.activity) },
            missedFalls: r.missedFalls.map { ReportEvent(recording: $0, activity: "fall") })
    }
}

extension ReportDetector {
    /// A detector of the SisFall online protocol: its figures, the intervals computed for the
    /// table, and its threshold sweep (empty when the run made none).
    public init(online r: OnlineProtocolResult, intervals: FigureIntervals?, sweep: [OperatingPoint]) {
        var figures = ReportFigures(hours: r.adlHours, falseAlarms: r.falseAlarms)
        figures.threshold = Double(r.threshold)
        figures.trials = r.counts.trials
        figures.falls = r.counts.falls
        figures.adls = r.counts.adls
        figures.sensitivity = r.counts.sensitivity
        figures.specificity = r.counts.specificity
        figures.balancedAccuracy = r.counts.balancedAccuracy
        figures.sensitivityInterval = ReportInterval(intervals?.sensitivity)
        figures.specificityInterval = ReportInterval(intervals?.specificity)
        figures.falseAlarmsPerHour = r.falseAlarmsPerHour
        figures.falseAlarmsPerHourInterval = ReportInterval(intervals?.falseAlarmsPerHour)
        figures.latencyMedian = r.medianLatency
        figures.latencyP95 = r.p95Latency
        // ADL codes first, then falls, as the paper lists them.
        let codes = r.perActivity.keys.sorted { ($0.hasPrefix("F") ? 1 : 0, $0) < ($1.hasPrefix("F") ? 1 : 0, $1) }
        let activities = codes.compactMap { code in
            r.perActivity[code].map {
                ReportActivity(
                    activity: code, summary: SisFallActivity.named(code)?.summary, isFall: code.hasPrefix("F"), trials: $0.trials,
                    detections: $0.triggered)
            }
        }
        self.init(
            name: r.detector, figures: figures, roc: sweep.map(ReportROCPoint.init), operatingPoint: ReportROCPoint(OperatingPoint(r)),
            activities: activities, latencies: r.latencies,
            falseAlarms: r.falseAlarmDetections.map { ReportEvent(recording: $0.trial.description, seconds: $0.seconds, activity: $0.trial.activityCode) },
            missedFalls: r.missedFalls.map { ReportEvent(recording: $0.description, activity: $0.activityCode) })
    }
}

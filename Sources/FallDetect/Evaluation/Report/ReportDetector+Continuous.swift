extension ReportDetector {
    /// A detector over continuous recordings. They have no threshold sweep, so the ROC is the
    /// operating point alone: false alarms per hour (and the share of falls found, if any).
    public init(continuous r: ContinuousResult) {
        var figures = ReportFigures(hours: r.activityHours, falseAlarms: r.falseAlarms.count)
        figures.falseAlarmsPerHour = r.falseAlarmsPerHour
        figures.falseAlarmsPerHourInterval = ReportInterval(r.falseAlarmsPerHourInterval)
        figures.removals = r.removals
        figures.removalsWithDetection = r.removalsWithDetection
        let sensitivity = r.falls > 0 ? Double(r.fallsDetected) / Double(r.falls) : nil
        if r.falls > 0 {
            figures.falls = r.falls
            figures.sensitivity = sensitivity
        }
        // Every detection by the activity it fell in, the removals and falls as their own rows.
        var counts: [String: (isFall: Bool, count: Int)] = [:]
        for d in r.detections { counts[d.activity, default: (d.place == .fall, 0)].count += 1 }
        let activities = counts.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.map {
            ReportActivity(activity: $0.key, isFall: $0.value.isFall, detections: $0.value.count)
        }
        func event(_ d: ContinuousDetection) -> ReportEvent { ReportEvent(recording: d.recording, seconds: d.seconds, activity: d.activity) }
        self.init(
            name: r.detector, figures: figures, operatingPoint: ReportROCPoint(threshold: nil, truePositiveRate: sensitivity, falseAlarmsPerHour: r.falseAlarmsPerHour),
            activities: activities, falseAlarms: r.falseAlarms.map(event), removalDetections: r.removalDetections.map(event))
    }
}

/// One point of a detector's threshold sweep. Trials give a true and false positive rate (0…1);
/// continuous recordings only false alarms per hour, so each figure is optional.
public struct ReportROCPoint: Sendable, Hashable, Codable {
    /// nil where the run does not know it (a continuous run reports the profile as shipped).
    public var threshold: Double?
    public var falsePositiveRate: Double?
    public var truePositiveRate: Double?
    public var falseAlarmsPerHour: Double?

    public init(threshold: Double?, falsePositiveRate: Double? = nil, truePositiveRate: Double? = nil, falseAlarmsPerHour: Double? = nil) {
        self.threshold = threshold
        self.falsePositiveRate = falsePositiveRate
        self.truePositiveRate = truePositiveRate
        self.falseAlarmsPerHour = falseAlarmsPerHour
    }

    /// A sweep point of the online protocol.
    public init(_ point: OperatingPoint) {
        self.init(
            threshold: Double(point.threshold), falsePositiveRate: 1 - point.specificity, truePositiveRate: point.sensitivity,
            falseAlarmsPerHour: point.falseAlarmsPerHour)
    }
}

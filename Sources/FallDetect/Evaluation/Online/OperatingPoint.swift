/// One point of a detector's threshold sweep: trial-level sensitivity and specificity (0…1) and
/// false alarms per hour of ADL.
public struct OperatingPoint: Sendable, Hashable {
    public var threshold: Float
    public var sensitivity: Double
    public var specificity: Double
    public var falseAlarmsPerHour: Double

    public init(threshold: Float, sensitivity: Double, specificity: Double, falseAlarmsPerHour: Double) {
        self.threshold = threshold
        self.sensitivity = sensitivity
        self.specificity = specificity
        self.falseAlarmsPerHour = falseAlarmsPerHour
    }

    /// Where an online evaluation landed.
    public init(_ result: OnlineProtocolResult) {
        self.init(
            threshold: result.threshold, sensitivity: result.counts.sensitivity ?? 0, specificity: result.counts.specificity ?? 0,
            falseAlarmsPerHour: result.falseAlarmsPerHour ?? 0)
    }
}

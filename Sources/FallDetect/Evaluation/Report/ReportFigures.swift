/// A detector's headline figures on one dataset. Trials fill SE, SP and AC; continuous
/// recordings leave them nil and carry false alarms per hour and removals instead. Rates are
/// fractions 0…1, latencies seconds.
public struct ReportFigures: Sendable, Hashable, Codable {
    public var threshold: Double?
    public var trials: Int?
    public var falls: Int?
    public var adls: Int?
    public var sensitivity: Double?
    public var specificity: Double?
    public var balancedAccuracy: Double?
    public var sensitivityInterval: ReportInterval?
    public var specificityInterval: ReportInterval?
    /// Hours of non-fall activity the false alarms are counted over.
    public var hours: Double
    public var falseAlarms: Int
    public var falseAlarmsPerHour: Double?
    public var falseAlarmsPerHourInterval: ReportInterval?
    public var latencyMedian: Double?
    public var latencyP95: Double?
    /// Recordings ending with the device taken off, and those with a detection there.
    public var removals: Int?
    public var removalsWithDetection: Int?

    public init(hours: Double, falseAlarms: Int) {
        self.hours = hours
        self.falseAlarms = falseAlarms
    }
}

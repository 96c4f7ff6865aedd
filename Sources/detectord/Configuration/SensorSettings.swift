import FallDetect

/// `[sensor]`: where samples come from and how to read them. Required, with `source`.
struct SensorSettings: Sendable, Equatable {
    var source: SensorSourceSettings
    /// Samples per second asked of the IMU (a replay keeps its recording's rate).
    var rateHz: Double
    /// The IMU's axes onto the body frame (+x forward, +y left, +z up), or `auto`: estimated
    /// from the wearer's walking (`MountingEstimator`).
    var axes: AxisChoice
    /// No sample for this long is a sensor fault.
    var stallSeconds: Double
    /// Minutes of sensor fault before the contacts are told; nil (0 in the file, the default)
    /// never tells them: a fault is shown in the status and the log, and is not an emergency.
    var faultMessageMinutes: Double?

    static let keys = ["source", "rate_hz", "axis_mapping", "stall_seconds", "fault_message_minutes", "i2c", "simulated", "replay"]

    init(source: SensorSourceSettings, rateHz: Double = 200, axes: AxisChoice = .fixed(.identity), stallSeconds: Double = 1) {
        self.source = source
        self.rateHz = rateHz
        self.axes = axes
        self.stallSeconds = stallSeconds
    }

    /// Reads the table; the sub-table of the chosen source is required, the other one is still
    /// checked when present so its mistakes do not wait for the day it is switched on.
    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        let sourceName = table.string("source", required: "\"i2c\" (the IMU), \"simulated\" (a simulated chip) or \"replay\" (a recording)").flatMap {
            table.oneOf("source", $0, SensorSourceSettings.names)
        }
        let rate = table.contains("rate_hz") ? table.number("rate_hz", in: SensorInfo.plausibleSampleRates) : 200
        var mapping: AxisChoice? = .fixed(.identity)
        if let text = table.string("axis_mapping") {
            mapping = AxisChoice(text)
            if mapping == nil {
                table.context.report(table.field("axis_mapping"), "\"\(text)\" is neither \"auto\" nor an axis mapping such as \"x=+z,y=-x,z=-y\" (each body axis takes a different sensor axis with a sign)")
            } else if case .fixed(var mirrored) = mapping, mirrored.isMirror {
                // The chip is real: its gyroscope would turn against its accelerometer.
                mirrored.y.sign = -mirrored.y.sign
                table.context.report(table.field("axis_mapping"), "\"\(text)\" is a mirror image, which no mounting gives (a chip's axes and the body's are both right-handed): one sign is wrong, and the gyroscope would turn the wrong way. If x (forward) and z (up) are right, it is \"\(mirrored)\"")
                mapping = nil
            }
        }
        var stall = table.contains("stall_seconds") ? table.number("stall_seconds", in: 0.05...60) : 1
        if let seconds = stall, let rate, seconds * rate < 2 {
            // Shorter than two sample intervals, ordinary jitter would count as a fault.
            table.context.report(table.field("stall_seconds"), "is \(ConfigurationTable.text(seconds)) s, under two sample intervals at \(ConfigurationTable.text(rate)) Hz; expected at least \(ConfigurationTable.text(2 / rate)) s")
            stall = nil
        }

        var i2c: I2CSensorSettings?
        var replay: ReplaySensorSettings?
        var simulated: SimulatedSensorSettings?
        if let sub = table.table("i2c", required: sourceName == "i2c" ? "a [sensor.i2c] table, since source is \"i2c\"" : nil) {
            i2c = I2CSensorSettings(sub)
        }
        if let sub = table.table("simulated", required: sourceName == "simulated" ? "a [sensor.simulated] table, since source is \"simulated\"" : nil) {
            simulated = SimulatedSensorSettings(sub, inUse: sourceName == "simulated")
        }
        if let sub = table.table("replay", required: sourceName == "replay" ? "a [sensor.replay] table, since source is \"replay\"" : nil) {
            replay = ReplaySensorSettings(sub, inUse: sourceName == "replay")
        }
        let source: SensorSourceSettings? =
            switch sourceName {
            case "i2c": i2c.map(SensorSourceSettings.i2c)
            case "simulated": simulated.map(SensorSourceSettings.simulated)
            case "replay": replay.map(SensorSourceSettings.replay)
            default: nil
            }
        var faultMinutes: Double? = 0
        if table.contains("fault_message_minutes") { faultMinutes = table.number("fault_message_minutes", in: 0...1440) }
        guard let source, let rate, let mapping, let stall, let faultMinutes else { return nil }
        self.init(source: source, rateHz: rate, axes: mapping, stallSeconds: stall)
        faultMessageMinutes = faultMinutes > 0 ? faultMinutes : nil
    }
}

import Foundation

/// `[sensor.simulated]`: a register-level simulated chip read by the real driver path, for a
/// newcomer without hardware and for tests. It takes `[sensor.i2c]`'s keys (the chip must be
/// named) and says what the chip measures.
struct SimulatedSensorSettings: Sendable, Equatable {
    var chip: I2CSensorSettings
    /// A recording the chip measures (.detrec, CSV or SisFall file); nil: lying still.
    var motion: String?
    /// Plays the motion again at its end rather than holding its last sample.
    var loop: Bool
    /// 1 runs in real time; 8 runs the chip, its clock and the timestamps eight times as fast.
    var speed: Double
    /// The chip's real rate over its nominal one (1.02: a board 2 % fast).
    var rateFactor: Double
    /// The source ends two seconds after the motion does, as a replay ends (`make run`).
    var stopAfterMotion = false
    /// A fault shown on purpose: "unplug" or "hung-bus", from `faultAtSeconds` for
    /// `faultForSeconds` of the chip's clock, so the daemon's fault handling can be watched.
    var fault: String?
    var faultAtSeconds: Double = 10
    var faultForSeconds: Double = 2

    static let faults = ["unplug", "hung-bus"]

    static let keys = ["motion", "loop", "speed", "rate_factor", "stop_after_motion", "fault", "fault_at_seconds", "fault_for_seconds"]

    init(chip: I2CSensorSettings, motion: String? = nil, loop: Bool = false, speed: Double = 1, rateFactor: Double = 1) {
        self.chip = chip
        self.motion = motion
        self.loop = loop
        self.speed = speed
        self.rateFactor = rateFactor
    }

    init?(_ table: ConfigurationTable, inUse: Bool) {
        let chip = I2CSensorSettings(table, extraKeys: Self.keys)
        if let chip, chip.chip == .auto {
            table.context.report(table.field("chip"), "is required: the chip to simulate, one of \(I2CChip.allCases.dropFirst().map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        var motion = table.path("motion")
        if inUse, let name = motion, !FileManager.default.fileExists(atPath: name) {
            table.context.report(table.field("motion"), "no such file: \(name)")
            motion = nil
        }
        let loop = table.contains("loop") ? table.bool("loop") : false
        let speed = table.contains("speed") ? table.number("speed", in: 0.01...100) : 1
        let rateFactor = table.contains("rate_factor") ? table.number("rate_factor", in: 0.9...1.1) : 1
        let stop = table.contains("stop_after_motion") ? table.bool("stop_after_motion") : false
        if stop == true, motion == nil || loop == true {
            table.context.report(table.field("stop_after_motion"), "needs a motion recording that does not loop")
            return nil
        }
        let fault = table.string("fault").flatMap { table.oneOf("fault", $0, Self.faults) }
        let at = table.contains("fault_at_seconds") ? table.number("fault_at_seconds", in: 0...86_400) : 10
        let lasting = table.contains("fault_for_seconds") ? table.number("fault_for_seconds", in: 0.01...86_400) : 2
        guard let chip, motion != nil || !table.contains("motion"), let loop, let speed, let rateFactor, let stop,
              fault != nil || !table.contains("fault"), let at, let lasting
        else { return nil }
        self.init(chip: chip, motion: motion, loop: loop, speed: speed, rateFactor: rateFactor)
        stopAfterMotion = stop
        self.fault = fault
        faultAtSeconds = at
        faultForSeconds = lasting
    }
}

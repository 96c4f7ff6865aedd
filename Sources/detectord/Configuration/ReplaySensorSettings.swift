import Foundation

/// `[sensor.replay]`: a recording played as if it were the live sensor, for demos and tests.
/// Required when `sensor.source` is "replay".
struct ReplaySensorSettings: Sendable, Equatable {
    /// A .detrec, CSV or SisFall file, or a folder of them.
    var path: String
    /// 1 plays in real time, 8 eight times as fast.
    var speed: Double
    /// Starts again at the end rather than stopping.
    var loop: Bool

    static let keys = ["path", "speed", "loop"]

    init(path: String, speed: Double = 1, loop: Bool = false) {
        self.path = path
        self.speed = speed
        self.loop = loop
    }

    /// Reads the table; `inUse` says the sensor source is "replay": only then must the file
    /// exist, so a device on its IMU does not depend on a demo recording being there.
    init?(_ table: ConfigurationTable, inUse: Bool) {
        table.rejectUnknownKeys(known: Self.keys)
        var path = table.path("path", required: "the recording to play: a .detrec, CSV or SisFall file or folder")
        if inUse, let name = path, !FileManager.default.fileExists(atPath: name) {
            table.context.report(table.field("path"), "no such file or folder: \(name)")
            path = nil
        }
        let speed = table.contains("speed") ? table.number("speed", in: 0.01...1000) : 1
        let loop = table.contains("loop") ? table.bool("loop") : false
        guard let path, let speed, let loop else { return nil }
        self.init(path: path, speed: speed, loop: loop)
    }
}

/// `[gnss]`: where position and speed come from (the crash detectors arm on speed, alerts carry
/// the position). Optional: gpsd on 127.0.0.1:2947.
enum GNSSSettings: Sendable, Equatable {
    case gpsd(host: String, port: Int)
    /// The fixes stored in the replayed recording (or the simulated chip's motion); needs
    /// `sensor.source = "replay"` or `"simulated"`.
    case recording
    case none

    static let keys = ["source", "host", "port"]
    static let names = ["gpsd", "recording", "none"]
    static let standard = GNSSSettings.gpsd(host: "127.0.0.1", port: 2947)

    /// Reads the table; `replaying` says whether the sensor is a recording.
    init?(_ table: ConfigurationTable, replaying: Bool?) {
        table.rejectUnknownKeys(known: Self.keys)
        var name: String? = "gpsd"
        if let text = table.string("source") { name = table.oneOf("source", text, Self.names) }
        let host = table.contains("host") ? table.string("host") : "127.0.0.1"
        if let host, host.isEmpty { table.context.report(table.field("host"), "is empty; expected gpsd's host name or address") }
        let port = table.contains("port") ? table.integer("port", in: 1...65_535) : 2947
        if name == "recording", replaying == false {
            table.context.report(table.field("source"), "\"recording\" needs a recording to take the fixes from: sensor.source = \"replay\" or \"simulated\"")
            return nil
        }
        switch name {
        case "gpsd":
            guard let host, !host.isEmpty, let port else { return nil }
            self = .gpsd(host: host, port: port)
        case "recording": self = .recording
        case "none": self = .none
        default: return nil
        }
    }
}

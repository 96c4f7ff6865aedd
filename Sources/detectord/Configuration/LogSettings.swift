/// `[log]`: the daemon's log. Optional: info.
struct LogSettings: Sendable, Equatable {
    var level: LogLevel

    static let keys = ["level"]

    init(level: LogLevel = .info) {
        self.level = level
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        guard let level: LogLevel = table.contains("level") ? table.choice("level") : .info else { return nil }
        self.init(level: level)
    }
}

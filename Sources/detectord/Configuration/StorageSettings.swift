/// `[storage]`: the SQLite database of the workflow's state, contacts and incidents, and how long
/// the wearer's position is kept in it. Optional.
struct StorageSettings: Sendable, Equatable {
    /// Created on first start; its folder must exist and be writable.
    var database: String
    /// Hours a recorded position is kept outside an emergency (docs/security.md).
    var positionRetentionHours: Double

    static let keys = ["database", "position_retention_hours"]
    static let standardDatabase = "/var/lib/detectord/detectord.sqlite"
    /// A day: an alert sent after a night without a fix still says where the wearer last was.
    static let defaultPositionRetentionHours = 24.0

    init(database: String = Self.standardDatabase, positionRetentionHours: Double = Self.defaultPositionRetentionHours) {
        self.database = database
        self.positionRetentionHours = positionRetentionHours
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        guard let database = table.contains("database") ? table.path("database") : Self.standardDatabase else { return nil }
        var hours = Self.defaultPositionRetentionHours
        if table.contains("position_retention_hours") {
            // From a minute (a device that should keep next to nothing) to a year.
            guard let given = table.number("position_retention_hours", in: (1.0 / 60)...8760) else { return nil }
            hours = given
        }
        self.init(database: database, positionRetentionHours: hours)
    }
}

/// `[storage]`: the SQLite database of the workflow's state, contacts and incidents. Optional.
struct StorageSettings: Sendable, Equatable {
    /// Created on first start; its folder must exist and be writable.
    var database: String

    static let keys = ["database"]
    static let standardDatabase = "/var/lib/detectord/detectord.sqlite"

    init(database: String = Self.standardDatabase) {
        self.database = database
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        guard let database = table.contains("database") ? table.path("database") : Self.standardDatabase else { return nil }
        self.init(database: database)
    }
}

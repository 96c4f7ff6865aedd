import GRDB

/// One line of the journal: when (wall-clock ns), what kind of thing, and its details.
public struct JournalEntry: Sendable, Equatable, FetchableRecord {
    public var time: Int64
    public var type: String
    public var payload: String

    public init(row: Row) {
        time = row["t"]
        type = row["type"]
        payload = row["payload"]
    }
}

import GRDB

/// One emergency from its countdown to its end, as a carer reviews it afterwards.
public struct Incident: Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var trigger: String
    /// Wall-clock nanoseconds.
    public var startedAt: Int64
    /// When the alert went out; nil if it never did (an "I'm fine" in time).
    public var sentAt: Int64?
    public var endedAt: Int64?
    /// The reason of the closing transition: "I'm fine", "tracking finished", "protection resumed"…
    public var outcome: String?

    public init(row: Row) {
        id = row["id"]
        trigger = row["trigger"]
        startedAt = row["startedAt"]
        sentAt = row["sentAt"]
        endedAt = row["endedAt"]
        outcome = row["outcome"]
    }
}

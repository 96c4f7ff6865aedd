import GRDB

/// One incident as its history page shows it: what started it, what the detectors saw, every
/// step of the workflow, and each message with its delivery.
public struct IncidentHistory: Sendable, Equatable {
    public var incident: Incident
    /// The detection's own account ("evidence" journal lines), newest last.
    public var evidence: [String]
    /// Journal lines from just before the countdown to the end (or now); deliveries are in `messages`.
    public var timeline: [JournalEntry]
    public var messages: [Message]

    public struct Message: Sendable, Equatable, FetchableRecord {
        public var kind: String
        public var channel: String
        public var recipient: String
        public var createdAt: Int64
        public var deliveredAt: Int64?
        public var attempts: Int
        /// Given up: a newer message or the all clear made it pointless.
        public var supersededAt: Int64?
        public var isTest: Bool

        public init(row: Row) {
            kind = row["kind"]
            channel = row["channel"]
            recipient = row["recipient"]
            createdAt = row["createdAt"]
            deliveredAt = row["deliveredAt"]
            attempts = row["attempts"]
            supersededAt = row["supersededAt"]
            isTest = row["test"] ?? false
        }
    }

    /// Journal lines written this long before an incident opened still belong to it: the
    /// detection's evidence is written just before the countdown starts.
    static let lead: Int64 = 5_000_000_000

    /// The newest `limit` incidents, newest first.
    static func fetch(_ db: Database, limit: Int) throws -> [IncidentHistory] {
        let incidents = try Incident.fetchAll(
            db, sql: "SELECT id, trigger, startedAt, endedAt, outcome, sentAt FROM incident ORDER BY id DESC LIMIT ?", arguments: [limit])
        return try incidents.map { incident in
            let from = incident.startedAt - lead
            let to = incident.endedAt ?? Int64.max
            let timeline = try JournalEntry.fetchAll(
                db, sql: "SELECT t, type, payload FROM journal WHERE t >= ? AND t <= ? AND type NOT IN ('ignored', 'setup', 'delivered', 'concealed') ORDER BY id",
                arguments: [from, to])
            let messages = try Message.fetchAll(
                db, sql: """
                    SELECT kind, channel, recipient, createdAt, deliveredAt, attempts, supersededAt, test FROM outbox
                    WHERE createdAt >= ? AND createdAt <= ? AND NOT concealed ORDER BY id
                    """, arguments: [incident.startedAt, to])
            return IncidentHistory(
                incident: incident, evidence: timeline.filter { $0.type == "evidence" }.map(\.payload),
                timeline: timeline.filter { $0.type != "evidence" }, messages: messages)
        }
    }
}

import GRDB

/// An outbox row the dispatcher still has to deal with: not delivered, not superseded, not
/// abandoned. Carries what ordering and probing need besides the message itself.
struct PendingMessage: Sendable, Equatable, FetchableRecord {
    var message: OutboxMessage
    /// 0 for an alert, 1 for everything else: alerts go first.
    var priority: Int
    var createdAt: Int64
    var nextAttemptAt: Int64
    /// nil until the first attempt; with `nextAttemptAt`, how long it has waited for a probe.
    var lastAttemptAt: Int64?

    init(message: OutboxMessage, createdAt: Int64, nextAttemptAt: Int64? = nil, lastAttemptAt: Int64? = nil) {
        self.message = message
        priority = (MessageKind(rawValue: message.kind) ?? .alert).deliveryPriority
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.lastAttemptAt = lastAttemptAt
    }

    init(row: Row) {
        message = OutboxMessage(row: row)
        priority = row["priority"]
        createdAt = row["createdAt"]
        nextAttemptAt = row["nextAttemptAt"]
        lastAttemptAt = row["lastAttemptAt"]
    }

    var isAlert: Bool { message.kind == MessageKind.alert.rawValue }

    /// Who receives it: the same number on two channels is two recipients.
    var recipientKey: String { message.channel + "\u{1F}" + message.recipient }
}

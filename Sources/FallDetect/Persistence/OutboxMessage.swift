import GRDB

/// A message waiting for (or being retried towards) one recipient on one channel.
public struct OutboxMessage: Sendable, Equatable, FetchableRecord {
    public var id: Int64
    /// Stable across restarts and retries: receivers use it to drop duplicates.
    public var idempotencyKey: String
    public var kind: String
    public var channel: String
    public var recipient: String
    public var attempts: Int
    /// Queued during a test alarm: its text says so, even if the test has ended when it goes out.
    public var isTest: Bool
    /// Part of the emergency the duress PIN hides: delivered as any other, never shown on the device.
    public var isConcealed: Bool

    init(
        id: Int64, idempotencyKey: String, kind: String, channel: String, recipient: String, attempts: Int, isTest: Bool = false,
        isConcealed: Bool = false
    ) {
        self.id = id
        self.idempotencyKey = idempotencyKey
        self.kind = kind
        self.channel = channel
        self.recipient = recipient
        self.attempts = attempts
        self.isTest = isTest
        self.isConcealed = isConcealed
    }

    /// The alert's sequence number that a key carries. Keys read
    /// `msg-<sequence>-<channel>-<recipient>[-<tag>]`; nil for any other shape.
    public static func sequence(inKey key: String) -> Int? {
        let fields = key.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0] == "msg" else { return nil }
        return Int(fields[1])
    }

    public init(row: Row) {
        id = row["id"]
        idempotencyKey = row["idempotencyKey"]
        kind = row["kind"]
        channel = row["channel"]
        recipient = row["recipient"]
        attempts = row["attempts"]
        isTest = row["test"] ?? false
        isConcealed = row["concealed"] ?? false
    }
}

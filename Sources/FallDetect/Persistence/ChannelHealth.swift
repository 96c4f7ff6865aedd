import GRDB

/// How a channel is doing, kept per channel (not per message) so that a channel coming back gets
/// everything at once instead of each message waiting out its own backoff. No row: healthy.
public struct ChannelHealth: Sendable, Equatable, FetchableRecord {
    public var channel: String
    /// When the current run of failures began (UTC ns).
    public var failingSince: Int64
    /// When the next probe may go out (UTC ns).
    public var nextProbeAt: Int64
    /// Failed attempts since the channel was last healthy; drives the backoff.
    public var failures: Int
    /// The caller said the channel is down (no network): attempts fail without being made.
    public var isDown: Bool

    init(channel: String, failingSince: Int64, nextProbeAt: Int64, failures: Int, isDown: Bool) {
        self.channel = channel
        self.failingSince = failingSince
        self.nextProbeAt = nextProbeAt
        self.failures = failures
        self.isDown = isDown
    }

    public init(row: Row) {
        channel = row["channel"]
        failingSince = row["failingSince"]
        nextProbeAt = row["nextProbeAt"]
        failures = row["failures"]
        isDown = row["isDown"]
    }
}

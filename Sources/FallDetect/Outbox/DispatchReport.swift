/// One thing `OutboxDispatcher.deliverDue(at:)` did, in the order it happened. The drill prints
/// these as JSON lines; the daemon logs them.
public enum DispatchReport: Sendable, Equatable {
    /// One attempt to deliver `message` (attempt number `attempt`, 1-based, per message).
    /// `delivered` is false for a transient or permanent failure, with the channel's `reason`; on
    /// a channel marked down the attempt fails without being made.
    case attempted(message: OutboxMessage, text: String, delivered: Bool, attempt: Int, reason: String?)
    /// An undelivered location update that a newer one to the same recipient replaced: never sent.
    case superseded(message: OutboxMessage, by: OutboxMessage)
    /// Given up for good: a permanent failure (reported as attempted just before) or a channel
    /// nobody configured (no attempt made).
    case abandoned(message: OutboxMessage, reason: String)
    /// What the state machine did because of the delivery just reported (e.g. EMERGENCY_SENT).
    case workflow([WorkflowAction])
}

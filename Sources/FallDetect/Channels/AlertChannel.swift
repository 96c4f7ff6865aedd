/// One way of reaching a contact: SMS, a webhook, the console, later MQTT, ntfy or Telegram. The
/// workflow only ever sees this protocol, so a new channel is a new conforming type and nothing
/// else changes. `deliver` never throws: every failure is classified into a `DeliveryOutcome`,
/// because what to do next (retry or give up) is the channel's knowledge, not the caller's.
public protocol AlertChannel: Sendable {
    /// The name stored in the outbox's `channel` column ("sms", "webhook", "console").
    var name: String { get }

    /// Makes one attempt. The same `idempotencyKey` may arrive again after a crash or a retry;
    /// channels pass it on where the receiver can use it to drop duplicates.
    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome
}

/// One message for one recipient on one channel, as the outbox hands it to a channel.
public struct OutgoingMessage: Sendable, Equatable {
    /// Stable across restarts and retries of the same message to the same recipient.
    public var idempotencyKey: String
    public var kind: MessageKind
    /// An E.164 number for SMS, a contact name or id for other channels.
    public var recipient: String
    /// The human text (what an SMS says).
    public var text: String
    /// The machine-readable form for channels that carry JSON.
    public var payload: EmergencyPayload
    /// 1 for the first try; channels use it for their backoff.
    public var attempt: Int
    /// What the channel did of this message on earlier attempts, and where to keep what it does.
    public var progress: ChannelProgress

    public init(
        idempotencyKey: String, kind: MessageKind, recipient: String, text: String, payload: EmergencyPayload, attempt: Int = 1,
        progress: ChannelProgress = .none
    ) {
        self.idempotencyKey = idempotencyKey
        self.kind = kind
        self.recipient = recipient
        self.text = text
        self.payload = payload
        self.attempt = attempt
        self.progress = progress
    }
}

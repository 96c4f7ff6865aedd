/// What one delivery attempt came to.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The receiver (or the network, for SMS with a delivery report) confirmed it; `reference` is
    /// the provider's id for it (an SMS message reference, an HTTP status, a console line number).
    case delivered(reference: String)
    /// A transient failure: try again after `seconds`.
    case retryAfter(seconds: Double, reason: String)
    /// Taken, but not yet confirmed (an SMS the network accepted, its status report still to
    /// come): the channel works, so its other messages go on at once; this one is asked about
    /// again after `checkAfter` seconds.
    case awaitingConfirmation(checkAfter: Double, reason: String)
    /// Trying again cannot help (a rejected number, a 4xx, a malformed message): stop for this
    /// recipient on this channel and say why.
    case permanentFailure(reason: String)

    public var isDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }
}

extension MessageKind {
    /// The outbox's priority column: the alert first (0), then everything else (1) by creation.
    /// A follow-up means nothing to a contact who never got the alert.
    var deliveryPriority: Int { self == .alert ? 0 : 1 }
}

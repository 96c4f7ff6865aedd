/// What a keychain reports.
public enum KeychainEvent: Sendable, Equatable {
    /// A press pattern, already debounced and told apart (single, double, triple); `receivedAt`
    /// is the CLOCK_MONOTONIC time of the notification that completed it, when known.
    case press(KeychainPress, receivedAt: Int64? = nil)
    case connected
    /// The link dropped (out of range, battery out, a long press that powers the tag off).
    case disconnected(reason: String)
    /// The tag's battery level, 0–100 %.
    case battery(percent: Int)
}

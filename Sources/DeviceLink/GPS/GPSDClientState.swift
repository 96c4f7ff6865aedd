/// What the gpsd client is doing, for status displays and logs.
public enum GPSDClientState: Sendable, Equatable, CustomStringConvertible {
    case stopped
    case connecting
    /// Connected and reports arrive.
    case connected
    /// Connected, but no report for longer than the silence timeout: the receiver went quiet.
    case receiverSilent(seconds: Double)
    /// Not connected; the next attempt is due in `retryIn` seconds.
    case disconnected(reason: String, retryIn: Double)

    /// The state without what runs on by itself (seconds silent, time to the next try): a change
    /// of it is news worth an event, where the description changes every second.
    public var headline: String {
        switch self {
        case .receiverSilent: "receiver silent"
        case .disconnected(let reason, _): "disconnected (\(reason))"
        default: description
        }
    }

    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .connecting: "connecting"
        case .connected: "connected"
        case .receiverSilent(let s): "receiver silent for \(Int(s)) s"
        case .disconnected(let reason, let retry): "disconnected (\(reason)); retrying in \((retry * 10).rounded() / 10) s"
        }
    }
}

import Synchronization

/// Writes each message as a line (to stdout by default) and keeps the lines: the channel for demos
/// and drills, and the copy of every alert that goes to the log. It can be marked unreachable, so a
/// drill's "network down" exercises the same retry path as a real channel.
public final class ConsoleChannel: AlertChannel {
    public let name: String
    private let sink: @Sendable (String) -> Void
    private let state = Mutex(State())
    /// The delay a failed attempt asks for while unreachable; the outbox may apply its own backoff.
    public let retryDelay: Double

    private struct State {
        var lines: [String] = []
        var reachable = true
    }

    public init(name: String = "console", retryDelay: Double = 30, sink: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.name = name
        self.retryDelay = retryDelay
        self.sink = sink
    }

    /// Every line written so far, oldest first.
    public var lines: [String] { state.withLock { $0.lines } }

    public var isReachable: Bool {
        get { state.withLock { $0.reachable } }
        set { state.withLock { $0.reachable = newValue } }
    }

    public func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        let line = "[\(message.kind.rawValue)] to \(message.recipient) (key \(message.idempotencyKey)): \(message.text)"
        let number: Int? = state.withLock { state in
            guard state.reachable else { return nil }
            state.lines.append(line)
            return state.lines.count
        }
        guard let number else { return .retryAfter(seconds: retryDelay, reason: "the console channel is marked unreachable") }
        sink(line)
        return .delivered(reference: "console line \(number)")
    }
}

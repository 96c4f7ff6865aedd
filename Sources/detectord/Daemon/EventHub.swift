import Foundation
import Logging
import Synchronization

/// Fans the daemon's events out to the log and to every listener of the API's event stream. A
/// slow listener loses its oldest events, never blocks the daemon; the last events are kept so a
/// listener that connects late (the page after a reload) sees what just happened.
final class EventHub: Sendable {
    private struct State {
        var listeners: [UUID: AsyncStream<DaemonEvent>.Continuation] = [:]
        var recent: [DaemonEvent] = []
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let keep: Int

    init(logger: Logger, keep: Int = 64) {
        self.logger = logger
        self.keep = keep
    }

    /// `concealed`: a step of the emergency the duress PIN hides, for the log alone (which only
    /// root and the service's user read), never for the page or the stream.
    func publish(_ event: DaemonEvent, concealed: Bool = false) {
        let level: Logger.Level = switch event.severity {
        case .error: .error
        case .warning: .warning
        case .notice: .notice
        case .info: .info
        case .debug: .debug
        }
        if Self.logOnly.contains(event.type) {
            // Whatever `[log] level` says: the login token is made once and shown only here.
            var always = logger
            always.logLevel = .trace
            always.log(level: level, "\(event.logLine)")
        } else {
            logger.log(level: level, "\(concealed ? "concealed " : "")\(event.logLine)")
        }
        guard !concealed, let streamed = Self.forListeners(event) else { return }
        let listeners = state.withLock { s in
            s.recent.append(streamed)
            if s.recent.count > keep { s.recent.removeFirst(s.recent.count - keep) }
            return Array(s.listeners.values)
        }
        for listener in listeners { listener.yield(streamed) }
    }

    /// Events that only the log may hold: the login token is shown once, where the person who
    /// started the daemon reads it, never to a page (whose session would turn into lasting access).
    static let logOnly: Set<String> = ["login_token"]

    /// What the event stream shows of an event. Any logged-in page and any loopback client reads
    /// it (the PIN is not asked), so phone numbers are masked as the status masks them, and a
    /// message's text (the wearer's name and position) stays in the log.
    static func forListeners(_ event: DaemonEvent) -> DaemonEvent? {
        guard !logOnly.contains(event.type) else { return nil }
        var copy = event
        copy.fields = event.fields.compactMap { name, value in
            if event.type == "message", name == "text" { return nil }
            if case .string(let text) = value { return (name, .string(SetupRoutes.maskingNumbers(text))) }
            return (name, value)
        }
        return copy
    }

    /// Events from now on, after the recent ones when `replay` is true. Ends when the caller
    /// stops iterating or the hub finishes.
    func subscribe(replay: Bool = false) -> AsyncStream<DaemonEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DaemonEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        let recent = state.withLock { s in
            s.listeners[id] = continuation
            return replay ? s.recent : []
        }
        for event in recent { continuation.yield(event) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in _ = s.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every listener's stream (at shutdown).
    func finish() {
        let listeners = state.withLock { s in
            defer { s.listeners = [:] }
            return Array(s.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    var recentEvents: [DaemonEvent] { state.withLock { $0.recent } }
}

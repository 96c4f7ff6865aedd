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

    func publish(_ event: DaemonEvent) {
        let level: Logger.Level = switch event.severity {
        case .error: .error
        case .warning: .warning
        case .notice: .notice
        case .info: .info
        case .debug: .debug
        }
        logger.log(level: level, "\(event.logLine)")
        let listeners = state.withLock { s in
            s.recent.append(event)
            if s.recent.count > keep { s.recent.removeFirst(s.recent.count - keep) }
            return Array(s.listeners.values)
        }
        for listener in listeners { listener.yield(event) }
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

import FallDetect
import Synchronization

/// A stand-in for a remote receiver (a contact's phone, a webhook server): it records every
/// message it was given and answers as the test tells it, e.g. failing for a while, then up.
final class RecordingChannel: AlertChannel {
    typealias Answer = @Sendable (OutgoingMessage) -> DeliveryOutcome

    static let deliver: Answer = { .delivered(reference: "ok \($0.idempotencyKey)") }
    static let unreachable: Answer = { _ in .retryAfter(seconds: 300, reason: "no route to host") }

    let name: String
    private let state: Mutex<State>

    private struct State {
        var received: [OutgoingMessage] = []
        var answer: Answer
    }

    init(name: String, answer: @escaping Answer = RecordingChannel.deliver) {
        self.name = name
        state = Mutex(State(answer: answer))
    }

    /// Every message handed over, in order, failed or not.
    var received: [OutgoingMessage] { state.withLock { $0.received } }

    func answer(with answer: @escaping Answer) {
        state.withLock { $0.answer = answer }
    }

    func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        state.withLock { state in
            state.received.append(message)
            return state.answer(message)
        }
    }
}

import FallDetect
import ServiceLifecycle
import Synchronization

/// Joins the keychain to the workflow: a single press raises an SOS from the keychain (the
/// workflow's shorter SOS countdown, its message repeating until disarmed), battery readings are
/// kept and a low battery is told to the contacts once a day, and the beeper follows the alarm.
/// Other press patterns only show in the log until the keychain's settings (issue 10) give them
/// a meaning: a panic button that can cancel is a risk under duress, so none cancels by default.
final class KeychainService: Service {
    let link: any KeychainLink
    /// Set once at start-up (the workflow needs this service for its beeper, and this service the
    /// workflow for the presses).
    private let workflow = Mutex<WorkflowService?>(nil)
    private let hub: EventHub
    private let state = Mutex<KeychainState>(.searching)
    /// Beeper changes in order, sent by one task so they cannot overtake each other.
    private let beeps: AsyncStream<Bool>
    private let beepContinuation: AsyncStream<Bool>.Continuation

    enum KeychainState: Sendable, Equatable {
        case searching, connected, lost(String)
    }

    init(link: any KeychainLink, hub: EventHub) {
        self.link = link
        self.hub = hub
        (beeps, beepContinuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
    }

    func connect(to workflow: WorkflowService) { self.workflow.withLock { $0 = workflow } }

    private func submit(_ command: WorkflowCommand) { workflow.withLock { $0 }?.submit(command) }

    /// The workflow's `keychainBeep` action.
    func beep(_ on: Bool) { beepContinuation.yield(on) }

    var status: [String: Any] {
        switch state.withLock({ $0 }) {
        case .searching: ["state": "searching", "source": link.summary]
        case .connected: ["state": "connected", "source": link.summary]
        case .lost(let why): ["state": "cannot find the keychain", "reason": why, "source": link.summary]
        }
    }

    func run() async throws {
        let beeper = Task { [link, beeps] in
            for await on in beeps { await link.setBeeping(on) }
        }
        defer {
            beepContinuation.finish()
            beeper.cancel()
        }
        for await event in link.events.cancelOnGracefulShutdown() {
            let now = WorkflowService.utcNow()
            switch event {
            case .press(let press):
                hub.publish(DaemonEvent("keychain_press", at: now, severity: .notice, [("pattern", .string(press.rawValue))]))
                if press == .single { submit(.input(.sos(fromKeychain: true), origin: "keychain", reply: nil)) }
            case .connected:
                state.withLock { $0 = .connected }
                hub.publish(DaemonEvent("keychain", at: now, [("state", .string("connected"))]))
            case .disconnected(let reason):
                state.withLock { $0 = .lost(reason) }
                hub.publish(DaemonEvent("keychain", at: now, severity: .warning, [("state", .string("lost")), ("reason", .string(reason))]))
            case .battery(let percent):
                submit(.keychainBattery(percent: percent))
            }
        }
    }
}

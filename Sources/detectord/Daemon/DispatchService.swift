import FallDetect
import Foundation
import ServiceLifecycle

/// Runs the outbox dispatchers in the daemon: sends what the workflow queued as soon as it is
/// queued (the workflow wakes them) and whenever a retry or probe falls due, and reports every
/// attempt. One dispatcher per channel (`OutboxLane`), each made inside its own task and owned by
/// it: a channel that takes a minute to answer holds back only its own messages.
struct DispatchService: Service {
    let store: WorkflowStore
    let channels: [String: any AlertChannel]
    let isTest: Bool
    let deviceID: String
    let hub: EventHub
    let metrics: DaemonMetrics
    /// The keychain's beeper: a delivery can end an alarm (a test alarm's first delivery does).
    let beep: @Sendable (Bool) -> Void
    /// Shared with the workflow service, never one of its own: a clock step moves the deadlines
    /// once, and each service applying it would move them twice.
    let clock: WallClock
    /// Each lane with the wake-up call it takes.
    private let lanes: [(lane: OutboxLane, woken: Wakeup)]
    /// A store that fails fails every lane, each every five seconds: told once a minute.
    private let failures = RepeatedFailureFilter()

    init(
        store: WorkflowStore, channels: [String: any AlertChannel], isTest: Bool, deviceID: String, hub: EventHub, metrics: DaemonMetrics,
        clock: WallClock, beep: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.store = store
        self.channels = channels
        self.isTest = isTest
        self.deviceID = deviceID
        self.hub = hub
        self.metrics = metrics
        self.beep = beep
        self.clock = clock
        lanes = OutboxLane.lanes(for: channels.keys).map { ($0, Wakeup()) }
    }

    /// Something was queued: look at the outbox now.
    func wake() {
        for lane in lanes { lane.woken.raise() }
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            for (lane, woken) in lanes {
                group.addTask { await self.run(lane, woken: woken) }
            }
        }
    }

    private func run(_ lane: OutboxLane, woken: Wakeup) async {
        var options = OutboxDispatcher.Options(deviceID: deviceID, isTest: isTest, channels: channels)
        options.timeZone = .current
        options.clock = { [clock] in clock.now() }
        options.lane = lane
        let dispatcher = OutboxDispatcher(store: store, options: options)
        // Whatever a previous run left undelivered is due now.
        var nextDue: Int64? = clock.now()
        var steps = clock.steps
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let now = clock.now()
            // After a clock step the deadlines moved: the one planned for is stale.
            let seen = clock.steps
            let stepped = seen != steps
            steps = seen
            if woken.take() || stepped || nextDue.map({ now >= $0 }) == true {
                do {
                    try await dispatcher.deliverDue(at: now) { report($0) }
                    nextDue = try dispatcher.nextDue()
                } catch {
                    if failures.shouldTell("\(error)", at: now) {
                        hub.publish(DaemonEvent("error", at: now, severity: .error, [("message", .string("outbox, \(lane): \(error)"))]))
                    }
                    nextDue = now + 5_000_000_000
                }
            }
            // A queued message is picked up within 100 ms; nothing is read while nothing is due.
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    private func report(_ report: DispatchReport) {
        let now = WorkflowService.utcNow()
        switch report {
        case .attempted(let message, let text, let delivered, let attempt, let reason):
            if !message.isConcealed { metrics.message(channel: message.channel, outcome: delivered ? "delivered" : "failed") }
            var fields: [(String, JSONLine.Value)] = [
                ("channel", .string(message.channel)), ("to", .string(message.recipient)), ("kind", .string(message.kind)),
                ("delivered", .bool(delivered)), ("attempt", .int(attempt)), ("key", .string(message.idempotencyKey)),
                ("text", .string(text)),
            ]
            if let reason { fields.append(("reason", .string(reason))) }
            hub.publish(DaemonEvent("message", at: now, severity: delivered ? .notice : .warning, fields), concealed: message.isConcealed)
        case .superseded(let message, let newer):
            if !message.isConcealed { metrics.message(channel: message.channel, outcome: "superseded") }
            hub.publish(
                DaemonEvent("superseded", at: now, [("key", .string(message.idempotencyKey)), ("by", .string(newer.idempotencyKey))]),
                concealed: message.isConcealed)
        case .abandoned(let message, let reason):
            if !message.isConcealed { metrics.message(channel: message.channel, outcome: "abandoned") }
            hub.publish(
                DaemonEvent("undeliverable", at: now, severity: .error, [("key", .string(message.idempotencyKey)), ("reason", .string(reason))]),
                concealed: message.isConcealed)
        case .workflow(let actions):
            let machine = try? store.workflow()
            for action in actions {
                switch action.revealed {
                case .transition(let from, let to, let reason):
                    if !action.isConcealed { metrics.transition(to: to) }
                    let left = action.isConcealed ? [] : machine.map { WorkflowService.remaining($0, at: now) } ?? []
                    hub.publish(DaemonEvent("transition", at: now, severity: .notice,
                                            [("from", .string(from.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))] + left),
                                concealed: action.isConcealed)
                case .tracking(let on):
                    hub.publish(DaemonEvent("tracking", at: now, [("on", .bool(on))]), concealed: action.isConcealed)
                case .alarm(let on):
                    hub.publish(DaemonEvent("alarm", at: now, [("on", .bool(on))]))
                case .keychainBeep(let on):
                    hub.publish(DaemonEvent("keychain_beep", at: now, [("on", .bool(on))]))
                    beep(on)
                default:
                    break
                }
            }
        }
    }
}

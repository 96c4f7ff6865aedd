import FallDetect
import Synchronization

/// The wall clock the workflow and the dispatcher time things by. A step (NTP setting the time
/// after boot on a Pi without a battery-backed clock, a person setting it) moves the store's
/// pending deadlines once, before either service writes a time on the new clock. Each noticing
/// the step by itself, the dispatcher could save a probe time on the new clock that the
/// workflow's move then shifted again, silencing a channel for the length of the step.
final class WallClock: Sendable {
    private struct State {
        var watch = WallClockWatch()
        var steps = 0
    }

    private let state = Mutex(State())
    private let store: WorkflowStore
    private let hub: EventHub
    private let wall: @Sendable () -> Int64

    /// `wall` reads the clock (UTC nanoseconds); tests step one of their own.
    init(store: WorkflowStore, hub: EventHub, wall: @escaping @Sendable () -> Int64 = WorkflowService.utcNow) {
        self.store = store
        self.hub = hub
        self.wall = wall
    }

    /// Steps applied so far: a service that planned by the clock before one plans again.
    var steps: Int { state.withLock { $0.steps } }

    /// Now on the wall clock; a step since the last reading, whichever service read it, has been
    /// applied to the store first (under the lock, so exactly once).
    func now() -> Int64 {
        state.withLock { state in
            let now = wall()
            guard let step = state.watch.step(wall: now, monotonic: MonotonicTime.nowNanoseconds()) else { return now }
            state.steps += 1
            shift(by: step, at: now)
            return now
        }
    }

    /// The countdown, retries, probes, tracking and lockouts keep the time they had left, and the
    /// wearer's page and the log say so.
    private func shift(by step: Int64, at now: Int64) {
        let seconds = WorkflowTransaction.seconds(step)
        var message = "the clock was set by \(seconds); countdowns, retries and tracking keep the time they had left"
        do {
            try store.transaction { try $0.shiftPendingTimes(by: step, at: now) }
        } catch {
            message = "the clock was set by \(seconds), but its deadlines could not be moved: \(error)"
        }
        hub.publish(DaemonEvent("clock_step", at: now, severity: .warning, [("step_s", .number(Double(step) / 1e9)), ("message", .string(message))]))
    }
}

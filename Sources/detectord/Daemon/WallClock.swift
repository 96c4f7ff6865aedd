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
        /// A step whose deadlines the store could not move (a full disk), and when to try again
        /// (monotonic ns). The watch keeps the reading from before it, so the step is seen again;
        /// meanwhile readings stay on the old clock, which the saved deadlines are still on.
        var pending: (step: Int64, retryAt: Int64)?
    }


    private let state = Mutex(State())
    private let store: WorkflowStore
    private let hub: EventHub
    private let wall: @Sendable () -> Int64
    /// How long a step the store refused waits before the store is tried again (ns).
    private let retryNanoseconds: Int64

    /// `wall` reads the clock (UTC nanoseconds); tests step one of their own.
    init(store: WorkflowStore, hub: EventHub, wall: @escaping @Sendable () -> Int64 = WorkflowService.utcNow, retrySeconds: Double = 5) {
        self.store = store
        self.hub = hub
        self.wall = wall
        retryNanoseconds = Int64(retrySeconds * 1e9)
    }

    /// Steps applied so far: a service that planned by the clock before one plans again.
    var steps: Int { state.withLock { $0.steps } }

    /// Now on the wall clock; a step since the last reading, whichever service read it, has been
    /// applied to the store first (under the lock, so exactly once).
    func now() -> Int64 {
        state.withLock { state in
            let now = wall()
            let tick = MonotonicTime.nowNanoseconds()
            let before = state.watch
            if let pending = state.pending, tick < pending.retryAt {
                // The whole step since the last reading the store took, a second one included.
                var watch = before
                return now &- (watch.step(wall: now, monotonic: tick) ?? 0)
            }
            guard let step = state.watch.step(wall: now, monotonic: tick) else {
                state.pending = nil
                return now
            }
            // A retry that fails again says nothing new: one warning per refused step.
            guard shift(by: step, at: now, announcingFailure: state.pending == nil) else {
                // Lost here, the step would never be seen again: once the disk freed, a countdown
                // moved forward would fire at once, one moved back would wait the step's length.
                state.watch = before
                state.pending = (step, tick + retryNanoseconds)
                return now &- step
            }
            state.pending = nil
            state.steps += 1
            return now
        }
    }

    /// The countdown, retries, probes, tracking and lockouts keep the time they had left, and the
    /// wearer's page and the log say so. Returns whether the store took the step.
    private func shift(by step: Int64, at now: Int64, announcingFailure: Bool) -> Bool {
        let seconds = WorkflowTransaction.seconds(step)
        var message = "the clock was set by \(seconds); countdowns, retries and tracking keep the time they had left"
        var moved = true
        do {
            try store.transaction { try $0.shiftPendingTimes(by: step, at: now) }
        } catch {
            moved = false
            message = "the clock was set by \(seconds), but its deadlines could not be moved (\(error)); the daemon keeps to the old time and tries again every \(retryNanoseconds / 1_000_000_000) s"
            if !announcingFailure { return false }
        }
        hub.publish(DaemonEvent("clock_step", at: now, severity: .warning, [("step_s", .number(Double(step) / 1e9)), ("message", .string(message))]))
        return moved
    }
}

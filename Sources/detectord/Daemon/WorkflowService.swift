import FallDetect
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Owns the workflow's state machine and its SQLite store in the running daemon. Every input is
/// one transaction (the snapshot, the journal and the outbox rows commit together), so a daemon
/// killed at any instant restarts exactly where it was; time is the wall clock, so a countdown
/// persisted before a reboot resumes with the right time left. After each change the dispatcher
/// is woken to send what the workflow asked for.
final class WorkflowService: Service {
    let store: WorkflowStore
    private let hub: EventHub
    private let commands: AsyncStream<WorkflowCommand>
    private let continuation: AsyncStream<WorkflowCommand>.Continuation
    private let wakeDispatcher: @Sendable () -> Void
    private let metrics: DaemonMetrics
    /// Countdowns are shortened for a demonstration: every countdown says so.
    private let demo: Bool
    /// Where the workflow's beeper actions go (the keychain, when there is one).
    private let beep: @Sendable (Bool) -> Void
    /// Called when the workflow goes back to watching, so that the detector takes a new fall
    /// at once (`DetectionPipeline.rearm()`).
    private let rearmDetector: @Sendable () -> Void
    /// Seconds off the body before the wearer is told; nil never tells.
    private let notWornMessageAfter: Double?
    /// Seconds of sensor fault before the contacts are told; nil never tells them.
    private let sensorFaultMessageAfter: Double?
    /// Seconds without the keychain's link before the wearer is told; nil never tells.
    private let keychainLostMessageAfter: Double?
    /// Seconds a position is kept (outside an emergency); nil keeps it until the next one.
    private let positionRetention: Double?
    /// Detections and SOS the store could not record (disk full, a read-only database): kept in
    /// memory, in order, and tried again every tick, so an emergency is late rather than lost.
    private let unrecorded = Mutex<[(input: WorkflowInput, origin: String)]>([])
    /// When positions are next pruned: once a minute is enough for a retention of an hour or
    /// more, and spares the 1 s tick a DELETE.
    private let nextPrune = Mutex<Int64>(0)
    /// A tick that keeps failing (a full disk during a countdown) is told once a minute, not
    /// every second, and never not at all.
    private let tickFailure = RepeatedFailureFilter()
    /// Seconds after a start within which the wear monitor, which starts from "worn", finds a
    /// device still off (its window is 40 s of rest); a not-worn episode saved before the start
    /// that it has not confirmed by then is over.
    let wearConfirmSeconds: Double
    /// Until when (monotonic) a saved not-worn episode waits for the monitor; nil once settled.
    private let wearUnconfirmedUntil = Mutex<Int64?>(nil)
    /// A change of wear the store did not take yet (`record(wear:since:at:)`).
    private let pendingWear = Mutex<(isWorn: Bool, since: Int64)?>(nil)
    /// The wall clock, shared with the dispatcher: a step moves the pending deadlines once.
    let clock: WallClock
    /// Press-to-decision times of keychain presses, for `bench --keychain` and the metrics.
    let pressLatencies = PressLatencies()

    init(
        store: WorkflowStore, hub: EventHub, metrics: DaemonMetrics, demo: Bool = false,
        notWornMessageAfter: Double? = nil, sensorFaultMessageAfter: Double? = nil, keychainLostMessageAfter: Double? = nil,
        positionRetention: Double? = nil, wakeDispatcher: @escaping @Sendable () -> Void, beep: @escaping @Sendable (Bool) -> Void = { _ in },
        rearmDetector: @escaping @Sendable () -> Void = {}, clock: WallClock? = nil, wearConfirmSeconds: Double = 90) {
        self.demo = demo
        self.wearConfirmSeconds = wearConfirmSeconds
        self.notWornMessageAfter = notWornMessageAfter
        self.sensorFaultMessageAfter = sensorFaultMessageAfter
        self.keychainLostMessageAfter = keychainLostMessageAfter
        self.positionRetention = positionRetention
        self.beep = beep
        self.rearmDetector = rearmDetector
        self.store = store
        self.hub = hub
        self.metrics = metrics
        self.wakeDispatcher = wakeDispatcher
        self.clock = clock ?? WallClock(store: store, hub: hub)
        (commands, continuation) = AsyncStream.makeStream(of: WorkflowCommand.self, bufferingPolicy: .unbounded)
    }

    /// A moment on the monotonic clock as a time on the wall clock that reads `now`.
    static func wallTime(ofMonotonic moment: Int64, now: Int64) -> Int64 {
        now &- max(0, MonotonicTime.nowNanoseconds() &- moment)
    }

    @Sendable static func utcNow() -> Int64 { Int64((Date().timeIntervalSince1970 * 1e9).rounded()) }

    /// Queues a command; once the service has stopped, a command with a reply is answered at once
    /// with an error, so no caller waits for an answer that cannot come.
    func submit(_ command: WorkflowCommand) {
        guard case .terminated = continuation.yield(command) else { return }
        let stopped = FallDetectError(.io, "the daemon is stopping; nothing was changed")
        switch command {
        case .input(_, _, let reply?): reply(.failure(stopped))
        case .disarm(_, let reply): reply(.failure(stopped))
        case .setup(_, _, let reply): reply(.failure(stopped))
        default: break
        }
    }

    /// Applies an input and waits for its outcome (the API's actions).
    func apply(_ input: WorkflowInput, origin: String) async -> Result<[WorkflowAction], FallDetectError> {
        await withCheckedContinuation { done in
            submit(.input(input, origin: origin, reply: { done.resume(returning: $0) }))
        }
    }

    func disarm(pin: String) async -> Result<[WorkflowAction], FallDetectError> {
        await withCheckedContinuation { done in submit(.disarm(pin: pin, reply: { done.resume(returning: $0) })) }
    }

    func setUp(_ change: SetupChange, pin: String?) async -> Result<SetupOutcome, FallDetectError> {
        await withCheckedContinuation { done in submit(.setup(change, pin: pin, reply: { done.resume(returning: $0) })) }
    }

    func run() async throws {
        // Before anything is recorded on a clock that may have come up behind (no battery-backed
        // clock): saved deadlines are moved onto it.
        let booted = Self.utcNow()
        var behind: Int64?
        if case .failure = attempt({ tx in
            behind = try tx.alignWithRecordedTime(at: booted)
            return []
        }) { behind = nil }
        if let behind {
            // The dispatcher's lanes may have planned by the times before the move.
            wakeDispatcher()
            hub.publish(DaemonEvent("clock_behind", at: booted, severity: .warning, [
                ("behind_s", .number(Double(-behind) / 1e9)),
                ("message", .string("the clock reads earlier than the last time recorded (not set yet?); countdowns and retries keep the time they had left")),
            ]))
        }
        // A restart resumes: tell what the database says is going on, and beep again on the
        // keychain while the alarm sounds, so the wearer can still stop a false one.
        let machine = try store.workflow()
        if machine.alarmOn { beep(true) }
        // The wear monitor starts from "worn" and reports only changes. A device still off is
        // found off again within its window and keeps its episode: since when, and whether the
        // wearer was told (ended at each start, a device left off was told of again after every
        // restart, and never with restarts less than 30 min apart). One put back on while the
        // daemon was down is let go once the window has passed without news (`tick`).
        if (try? store.transaction({ try $0.notWornSince() })) != nil {
            wearUnconfirmedUntil.withLock { $0 = MonotonicTime.nowNanoseconds() + Int64(wearConfirmSeconds * 1e9) }
        }
        hub.publish(DaemonEvent("workflow", at: Self.utcNow(), [("state", .string(machine.displayedState.rawValue))] + Self.remaining(machine, at: Self.utcNow())))
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        // On shutdown the stream is finished, and what was already queued (a detection, the
        // wearer's "I'm fine") is still applied before the service returns.
        await withGracefulShutdownHandler {
            for await command in commands {
                handle(command)
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
        // A fall or an SOS the store could not take yet (a full disk) gets a last try; what still
        // cannot be recorded is said, each one, so a stop never drops one without a word.
        let now = clock.now()
        recordLate(at: now)
        for entry in unrecorded.withLock({ $0 }) {
            hub.publish(DaemonEvent("error", at: now, severity: .error, [
                ("message", .string("stopping with \(Self.name(entry.input)) from \(entry.origin) not recorded: the database could not take it")),
            ]))
        }
    }

    private func handle(_ command: WorkflowCommand) {
        // Before anything is timed by the new clock: a deadline set after the step is already right.
        let stepsBefore = clock.steps
        let now = clock.now()
        // Retries are due at other times now.
        if clock.steps != stepsBefore { wakeDispatcher() }
        switch command {
        case .input(let input, let origin, let reply):
            let result = attempt { tx in try tx.apply(input, at: now) }
            switch result {
            case .success(let actions):
                // The person's own actions are worth a line; the detector's show as detections.
                if origin != "detector" {
                    hub.publish(DaemonEvent("action", at: now, [("input", .string(Self.name(input))), ("from", .string(origin))]))
                }
                report(actions, at: now)
                rearmIfAnswered(actions, origin: origin)
            case .failure(let error):
                let (kept, message) = unrecordable(input, origin: origin, error: error, at: now)
                // Whoever asked (the page's SOS) learns it is taken and will happen, not that it failed.
                reply?(kept ? .failure(FallDetectError(.deferred, message, path: error.path)) : result)
                return
            }
            reply?(result)
        case .disarm(let pin, let reply):
            let result = attempt { tx in try tx.disarm(pin: pin, at: now) }
            if case .success(let actions) = result {
                report(actions, at: now)
                rearmIfAnswered(actions, origin: "pin")
            }
            reply(result)
        case .setup(let change, let pin, let reply):
            var outcome = SetupOutcome.pinNeeded
            let result = attempt { tx in
                outcome = try tx.setUp(change, pin: pin, at: now)
                if case .done(let actions) = outcome { return actions }
                return []
            }
            switch result {
            case .success(let actions):
                hub.publish(DaemonEvent("setup", at: now, [("change", .string(Self.name(change))), ("outcome", .string(Self.name(outcome)))]))
                report(actions, at: now)
                reply(.success(outcome))
            case .failure(let error):
                reply(.failure(error))
            }
        case .note(let type, let payload):
            _ = attempt { tx in
                try tx.note(type, payload, at: now)
                return []
            }
        case .position(let fix):
            guard let latitude = fix.latitude, let longitude = fix.longitude, fix.isTrusted else { return }
            let result = attempt { tx in
                try tx.recordFix(StoredPosition(latitude: latitude, longitude: longitude, accuracy: fix.horizontalAccuracy, speed: fix.speed), at: now)
            }
            if case .success(let actions) = result { report(actions, at: now) }
        case .keychainBattery(let percent):
            let result = attempt { tx in try tx.recordKeychainBattery(percent: percent, at: now) ? [.send(.lowBattery)] : [] }
            hub.publish(DaemonEvent("keychain_battery", at: now, severity: percent < 20 ? .warning : .info, [("percent", .int(percent))]))
            if case .success(let actions) = result { report(actions, at: now) }
        case .keychainPress(let press, let policy, let receivedAt):
            var decision = KeychainPressDecision(input: nil, reason: "")
            var stateRead = false
            let result = attempt { tx in
                let machine = try tx.workflow()
                stateRead = true
                decision = policy.decide(press, state: machine.displayedState, trigger: machine.trigger)
                return try decision.input.map { try tx.apply($0, at: now) } ?? []
            }
            if let receivedAt { pressLatencies.record(nanoseconds: MonotonicTime.nowNanoseconds() - receivedAt) }
            if case .failure = result, !stateRead, policy.meansSOS(press) {
                // The state could not be read: the SOS pattern stays an SOS (applied late in a
                // state where it means nothing, it is ignored there).
                decision = KeychainPressDecision(input: .sos(fromKeychain: true), reason: "\(press.rawValue) press: SOS (the state could not be read)")
            }
            hub.publish(DaemonEvent("keychain_press", at: now, severity: .notice,
                                    [("pattern", .string(press.rawValue)), ("decision", .string(decision.reason))]))
            switch result {
            case .success(let actions):
                report(actions, at: now)
                rearmIfAnswered(actions, origin: "keychain")
            case .failure(let error):
                if let input = decision.input { _ = unrecordable(input, origin: "keychain", error: error, at: now) } else {
                    hub.publish(DaemonEvent("error", at: now, severity: .error, [("message", .string(error.description))]))
                }
            }
        case .keychainLink(let connected, let sinceMonotonic):
            let since = Self.wallTime(ofMonotonic: sinceMonotonic, now: now)
            _ = attempt { tx in
                try tx.recordKeychainLink(connected: connected, since: since, at: now)
                return []
            }
        case .wear(let isWorn, let sinceMonotonic):
            wearUnconfirmedUntil.withLock { $0 = nil }
            record(wear: isWorn, since: Self.wallTime(ofMonotonic: sinceMonotonic, now: now), at: now)
        case .sensorFault(let isFaulty, let sinceMonotonic):
            let since = Self.wallTime(ofMonotonic: sinceMonotonic, now: now)
            _ = attempt { tx in
                try tx.recordSensorFault(isFaulty: isFaulty, since: since, at: now)
                return []
            }
        case .tick:
            recordLate(at: now)
            endUnconfirmedWear(at: now)
            if let wear = pendingWear.withLock({ $0 }) { record(wear: wear.isWorn, since: wear.since, at: now) }
            let after = notWornMessageAfter
            let faultAfter = sensorFaultMessageAfter
            let lostAfter = keychainLostMessageAfter
            let retention = positionRetention.flatMap { pruneIsDue(at: now) ? $0 : nil }
            let result = attempt { tx in
                var actions = try tx.apply(.tick, at: now)
                if let after, try tx.remindNotWorn(afterSeconds: after, at: now) { actions.append(.send(.notWorn)) }
                if let faultAfter, try tx.remindSensorFault(afterSeconds: faultAfter, at: now) { actions.append(.send(.sensorFault)) }
                if let lostAfter, try tx.remindKeychainLost(afterSeconds: lostAfter, at: now) { actions.append(.send(.keychainLost)) }
                if let retention { try tx.prunePositions(recordedBefore: now &- Int64(retention * 1e9), at: now) }
                return actions
            }
            switch result {
            case .success(let actions):
                tickFailure.cleared()
                report(actions, at: now)
            case .failure(let error):
                if tickFailure.shouldTell(error.description, at: now) {
                    hub.publish(DaemonEvent("error", at: now, severity: .error, [
                        ("message", .string("\(error); the countdown, reminders and retries wait until the store takes writes again")),
                    ]))
                }
            }
        }
    }

    /// Ends a not-worn episode saved before the start that the monitor has not found again in
    /// its window: the device was put back on while the daemon was down.
    private func endUnconfirmedWear(at now: Int64) {
        guard let until = wearUnconfirmedUntil.withLock({ $0 }), MonotonicTime.nowNanoseconds() >= until else { return }
        wearUnconfirmedUntil.withLock { $0 = nil }
        record(wear: true, since: now, at: now)
    }

    /// Records a change of wear and tells it. One the store cannot take (a full disk) is tried
    /// again each tick: the monitor reports only changes, so dropped, a device worn again would
    /// stay "off" (and its wearer be told so) until the next removal.
    private func record(wear isWorn: Bool, since: Int64, at now: Int64) {
        // What the event tells is read in the write's own transaction.
        var settled = true
        var episodeSince = since
        let result = attempt { tx in
            try tx.recordWear(isWorn: isWorn, since: since, at: now)
            settled = try tx.workflow().displayedState.isSettled
            episodeSince = try tx.notWornSince() ?? since
            return []
        }
        guard case .success = result else {
            pendingWear.withLock { $0 = (isWorn, since) }
            return
        }
        pendingWear.withLock { $0 = nil }
        // Detection goes on either way; during an emergency the stillness may be the wearer's.
        let resting = settled
            ? "the device rests as no worn device does (taken off?); detection goes on"
            : "the device lies still as no worn device does; during an emergency that may be a wearer who cannot move: the alert stands"
        hub.publish(
            isWorn
                ? DaemonEvent("worn", at: now, [("message", .string("the device moves with a body again"))])
                : DaemonEvent(
                    "not_worn", at: now, severity: .notice,
                    // An episode that outlived a restart goes on from its own start.
                    [("since", .string(DaemonEvent.timestamp(episodeSince))), ("message", .string(resting))]))
    }

    /// True once a minute; also when the clock stepped back past the last prune.
    private func pruneIsDue(at now: Int64) -> Bool {
        nextPrune.withLock { next in
            guard now >= next || now < next &- 60_000_000_000 else { return false }
            next = now &+ 60_000_000_000
            return true
        }
    }

    /// An emergency's start: losing it would leave a fallen person without help.
    static func mustNotBeLost(_ input: WorkflowInput) -> Bool {
        switch input {
        case .detection, .sos, .followUp: true
        default: false
        }
    }

    /// An input the store could not record: an emergency's start is kept for `recordLate`, and
    /// the person and the log are told either way. Returns whether it was kept, and the message.
    private func unrecordable(_ input: WorkflowInput, origin: String, error: FallDetectError, at now: Int64) -> (kept: Bool, message: String) {
        let kept = Self.mustNotBeLost(input)
        if kept { unrecorded.withLock { $0.append((input, origin)) } }
        let message = error.description + (kept ? "; kept in memory and tried again every second" : "")
        hub.publish(DaemonEvent("error", at: now, severity: .error, [("message", .string(message))]))
        return (kept, message)
    }

    /// Tries the unrecorded inputs again, oldest first; stops at the first that still fails.
    private func recordLate(at now: Int64) {
        let waiting = unrecorded.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for (index, entry) in waiting.enumerated() {
            guard case .success(let actions) = attempt({ tx in try tx.apply(entry.input, at: now) }) else {
                unrecorded.withLock { $0.insert(contentsOf: waiting[index...], at: 0) }
                return
            }
            hub.publish(DaemonEvent("recorded_late", at: now, severity: .warning, [
                ("input", .string(Self.name(entry.input))), ("from", .string(entry.origin)),
            ]))
            report(actions, at: now)
        }
    }

    private func attempt(_ body: (WorkflowTransaction) throws -> [WorkflowAction]) -> Result<[WorkflowAction], FallDetectError> {
        do {
            return .success(try store.transaction(body))
        } catch let error as FallDetectError {
            return .failure(error)
        } catch {
            return .failure(FallDetectError(.io, "\(error)", path: store.path))
        }
    }

    /// The wearer answered (I'm fine, the PIN, resume, the survey) and the workflow watches again:
    /// a fall from now on is a new event (`DetectionPipeline.rearm()`). A countdown the detector's
    /// own stages withdrew (up again, timed out) keeps the refractory period, as the bench counts.
    private func rearmIfAnswered(_ actions: [WorkflowAction], origin: String) {
        guard origin != "detector" else { return }
        if actions.contains(where: { if case .transition(_, .noEmergency, _) = $0 { true } else { false } }) { rearmDetector() }
    }

    /// Logs and streams what the workflow did; wakes the dispatcher when a message was queued.
    /// A concealed step (the duress PIN's hidden emergency) goes to the log only.
    private func report(_ actions: [WorkflowAction], at now: Int64) {
        var queued = false
        for action in actions {
            let concealed = action.isConcealed
            switch action.revealed {
            case .transition(let from, let to, let reason):
                if !concealed { metrics.transition(to: to) }
                let machine = try? store.workflow()
                hub.publish(DaemonEvent(
                    "transition", at: now, severity: .notice,
                    [("from", .string(from.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))]
                        + (machine.map { Self.remaining($0, at: now) } ?? [])
                        + (demo && to == .alertCountdown ? [("demo", .string("countdown shortened for a demonstration"))] : [])),
                    concealed: concealed)
            case .alarm(let on):
                hub.publish(DaemonEvent("alarm", at: now, [("on", .bool(on))]))
            case .keychainBeep(let on):
                hub.publish(DaemonEvent("keychain_beep", at: now, [("on", .bool(on))]))
                beep(on)
            case .send(let kind):
                queued = true
                hub.publish(DaemonEvent("queued", at: now, [("kind", .string(kind.rawValue))]), concealed: concealed)
            case .tracking(let on):
                let machine = try? store.workflow()
                hub.publish(
                    DaemonEvent("tracking", at: now, [("on", .bool(on))] + (machine.map { Self.remaining($0, at: now) } ?? [])),
                    concealed: concealed)
            case .showSurvey:
                hub.publish(DaemonEvent("survey", at: now), concealed: concealed)
            case .pinRequired:
                hub.publish(DaemonEvent("pin_required", at: now))
            case .warning(let text):
                hub.publish(DaemonEvent("warning", at: now, severity: .warning, [("message", .string(text))]))
            case .ignored(let text):
                hub.publish(DaemonEvent("ignored", at: now, severity: .debug, [("message", .string(text))]))
            case .concealed:
                break  // `revealed` unwraps every layer
            }
        }
        if queued { wakeDispatcher() }
    }

    /// The countdown's and tracking's time left, for a transition's event.
    static func remaining(_ machine: EmergencyWorkflow, at now: Int64) -> [(String, JSONLine.Value)] {
        var fields: [(String, JSONLine.Value)] = []
        // Under duress the device shows no emergency: no countdown, no tracking.
        if machine.underDuress { return fields }
        if let left = machine.countdownRemaining(at: now) { fields.append(("countdown_s", .number((left * 10).rounded() / 10))) }
        if let left = machine.trackingRemaining(at: now) { fields.append(("tracking_s", .number((left * 10).rounded() / 10))) }
        return fields
    }

    static func name(_ input: WorkflowInput) -> String {
        switch input {
        case .startProtection: "start_protection"
        case .stopProtection: "stop_protection"
        case .detection(let trigger): "detection_\(trigger.rawValue)"
        case .sos: "sos"
        case .testAlarm: "test_alarm"
        case .followUp(let kind): "follow_up_\(kind.rawValue.replacingOccurrences(of: " ", with: "_"))"
        case .imFine: "im_fine"
        case .call112: "call112"
        case .quit: "quit"
        case .survey(let answer): "survey_\(answer.rawValue)"
        case .cancel: "cancel"
        case .resume: "resume"
        case .disarm: "disarm"
        case .delivered(let kind): "delivered_\(kind.rawValue)"
        case .position: "position"
        case .tick: "tick"
        }
    }

    static func name(_ change: SetupChange) -> String {
        switch change {
        case .person: "person"
        case .pin: "pin"
        case .saveContact(_, let replacing, _): replacing == nil ? "contact_added" : "contact_edited"
        case .removeContact: "contact_removed"
        case .detector(let choice): "detector_\(choice.profile)_\(choice.sensitivity)"
        case .testAlarm: "test_alarm"
        case .unlock: "unlock"
        }
    }

    static func name(_ outcome: SetupOutcome) -> String {
        switch outcome {
        case .done: "done"
        case .pinNeeded: "pin_needed"
        case .wrongPIN: "wrong_pin"
        case .lockedOut: "locked_out"
        }
    }
}

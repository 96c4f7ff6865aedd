import Foundation

/// The emergency workflow as a pure state machine: inputs and the current time go in, actions come
/// out, and nothing else happens inside. Time is wall-clock UTC nanoseconds supplied by the caller,
/// so a countdown persisted before a reboot resumes with the right time left.
///
/// NO_EMERGENCY → ALERT_COUNTDOWN → EMERGENCY_SENDING → EMERGENCY_SENT or EMERGENCY_SENDING_FAILED
/// → EMERGENCY_ENDED → NO_EMERGENCY. Every transition is returned as an action with its reason.
public struct EmergencyWorkflow: Sendable, Equatable, Codable {
    public var settings: WorkflowSettings
    public private(set) var state: EmergencyState = .noEmergency
    public private(set) var person: ProtectedPerson?
    public private(set) var trigger: EmergencyTrigger?
    public private(set) var alarmOn = false
    /// The wearer gave the PIN during this emergency (or the duress PIN, which looks the same).
    public private(set) var disarmed = false
    /// The duress PIN was used: the wearer sees a disarmed device, the emergency goes on.
    public private(set) var underDuress = false
    /// The alarm came from the keychain button: its message repeats until disarmed.
    public private(set) var raisedFromKeychain = false

    private var countdownDeadline: Int64?
    private var sendingStarted: Int64?
    private var delivered = false
    /// When tracking ends: 30 min after the alert was delivered, so it is set only then.
    private var trackingUntil: Int64?
    /// Tracking is on but its end waits for the alert's delivery (EMERGENCY_SENDING or
    /// EMERGENCY_SENDING_FAILED). Optional so that a snapshot written before it existed still loads;
    /// such a snapshot had its end fixed when sending began, and a delivery fixes it anew.
    private var trackingAwaitsDelivery: Bool?
    private var lastLocationSent: Int64?
    private var lastSentPosition: Position?
    private var latestPosition: Position?
    private var nextKeychainRepeat: Int64?
    /// Another detection or an SOS came during this countdown (a bike crash is seen by the fall
    /// and the crash detector both): being up again then withdraws nothing. Optional so that a
    /// snapshot written before it existed still loads.
    private var corroborated: Bool?

    struct Position: Sendable, Equatable, Codable {
        var latitude: Double
        var longitude: Double
    }

    public init(settings: WorkflowSettings = WorkflowSettings()) {
        self.settings = settings
    }

    public var isProtecting: Bool { person != nil }
    public var isTracking: Bool { trackingUntil != nil || trackingAwaitsDelivery == true }

    /// When tracking ends (UTC ns): fixed when the alert is delivered (EMERGENCY_SENT), nil before.
    public var trackingEndsAt: Int64? { delivered ? trackingUntil : nil }

    /// What the wearer's screen shows: under duress the device pretends all is well.
    public var displayedState: EmergencyState { underDuress ? .noEmergency : state }

    /// Seconds left in the countdown, for the status display.
    public func countdownRemaining(at now: Int64) -> Double? {
        guard state == .alertCountdown, let deadline = countdownDeadline else { return nil }
        return max(0, Double(deadline - now) / 1e9)
    }

    /// Seconds of tracking left, nil when not tracking or while the alert is not yet delivered
    /// (tracking then lasts until `settings.trackingDuration` after the delivery).
    public func trackingRemaining(at now: Int64) -> Double? {
        trackingEndsAt.map { max(0, Double($0 - now) / 1e9) }
    }

    /// Seconds until the keychain alarm repeats its message (shown as mm:ss), nil when it does not.
    public func nextKeychainMessage(at now: Int64) -> Double? {
        nextKeychainRepeat.map { max(0, Double($0 - now) / 1e9) }
    }

    /// Moves every pending deadline by a step of the wall clock, so the countdown, the time to
    /// EMERGENCY_SENDING_FAILED, tracking and the keychain's repeats keep what they had left.
    public mutating func shiftPendingTimes(by step: Int64) {
        func shifted(_ time: Int64?) -> Int64? { time.map { $0 &+ step } }
        countdownDeadline = shifted(countdownDeadline)
        sendingStarted = shifted(sendingStarted)
        trackingUntil = shifted(trackingUntil)
        lastLocationSent = shifted(lastLocationSent)
        nextKeychainRepeat = shifted(nextKeychainRepeat)
    }

    /// The wearer's last position was deleted after its retention: the machine keeps no copy of
    /// it (its snapshot is saved), and tracking has nothing to send until a new fix.
    public mutating func forgetPositions() {
        latestPosition = nil
        lastSentPosition = nil
    }

    public mutating func handle(_ input: WorkflowInput, at now: Int64) -> [WorkflowAction] {
        let shownBefore = displayedState
        let hiddenBefore = underDuress
        let actions = step(input, at: now)
        guard hiddenBefore || underDuress else { return actions }
        return Self.disguised(actions, shownBefore: shownBefore, shownAfter: displayedState)
    }

    /// Under duress the device shows what a correct disarm shows: the alarm stopping, and a
    /// transition where the shown state changes. The emergency's own steps (transitions,
    /// messages, tracking) go on, concealed.
    static func disguised(_ actions: [WorkflowAction], shownBefore: EmergencyState, shownAfter: EmergencyState) -> [WorkflowAction] {
        var shown = actions.map { action -> WorkflowAction in
            switch action {
            case .transition, .send, .tracking, .showSurvey: .concealed(action)
            case .alarm, .keychainBeep, .pinRequired, .warning, .ignored, .concealed: action
            }
        }
        if shownBefore != shownAfter { shown.append(.transition(from: shownBefore, to: shownAfter, reason: "disarmed with the PIN")) }
        return shown
    }

    private mutating func step(_ input: WorkflowInput, at now: Int64) -> [WorkflowAction] {
        // A countdown that ran out is over whatever comes before the next tick: else an "I'm
        // fine" (or a cancel) in that second called off, without the PIN, an alert now due,
        // and requests queued across a reboot past the deadline did so too.
        if input != .tick, state == .alertCountdown, let deadline = countdownDeadline, now >= deadline {
            return tick(at: now) + step(input, at: now)
        }
        if underDuress {
            switch input {
            case .imFine, .call112, .quit, .survey, .cancel, .resume, .disarm:
                // The wearer's answers get what they get from a device with no emergency: the
                // same words, from a machine in that state.
                var watching = EmergencyWorkflow(settings: settings)
                return watching.step(input, at: now)
            default:
                break
            }
        }
        switch input {
        case .startProtection(let who, let gnssConfigured, let hasFix):
            person = who
            var actions: [WorkflowAction] = []
            if !gnssConfigured {
                actions.append(.warning("no GNSS source is configured: alerts will carry no location"))
            } else if !hasFix {
                actions.append(.warning("no GNSS fix yet: alerts will carry the last known location only"))
            }
            return actions
        case .stopProtection:
            guard state == .noEmergency else { return [.ignored("an emergency is in progress")] }
            person = nil
            return []
        case .detection(let kind):
            return raise(kind, countdown: settings.countdown, fromKeychain: false, at: now)
        case .sos(let fromKeychain):
            return raise(.manual, countdown: settings.manualCountdown, fromKeychain: fromKeychain, at: now)
        case .testAlarm:
            return raise(.test, countdown: settings.manualCountdown, fromKeychain: false, at: now)
        case .followUp(let kind):
            return followUp(kind)
        case .imFine:
            guard state == .alertCountdown else { return [.ignored("\"I'm fine\" applies during the countdown")] }
            countdownDeadline = nil
            return silence() + [move(to: .noEmergency, "I'm fine")]
        case .call112:
            guard state == .alertCountdown else { return [.ignored("\"Call 112\" applies during the countdown")] }
            return silence()
        case .quit:
            guard state.hasSent || state == .emergencyEnded else { return [.ignored("nothing to quit")] }
            guard disarmed else { return [.pinRequired] }
            return silence() + [.showSurvey]
        case .survey(let answer):
            guard state.hasSent || state == .emergencyEnded else { return [.ignored("no emergency to answer for")] }
            guard disarmed else { return [.pinRequired] }
            switch answer {
            case .didntFall: return cancel(reason: "survey: I didn't fall")
            case .fell: return []
            case .noHelpNeeded: return resume(reason: "survey: I don't need help anymore")
            }
        case .cancel:
            guard state.hasSent else {
                return state == .alertCountdown ? handle(.imFine, at: now) : [.ignored("no emergency to cancel")]
            }
            // A test alarm that cannot get through may be called off without the PIN.
            guard disarmed || trigger == .test else { return [.pinRequired] }
            return cancel(reason: "cancelled by the wearer")
        case .resume:
            guard state == .emergencyEnded || state.hasSent else { return [.ignored("no emergency to resume from")] }
            guard disarmed || !everSent else { return [.pinRequired] }
            return resume(reason: "protection resumed")
        case .disarm(let verdict):
            return disarm(verdict, at: now)
        case .delivered(let kind):
            guard kind == .alert, state == .emergencySending || state == .emergencySendingFailed else { return [] }
            delivered = true
            if isTracking {
                // Tracking lasts from the moment a contact knows, not from when sending began.
                trackingUntil = now + nanoseconds(settings.trackingDuration)
                trackingAwaitsDelivery = nil
            }
            guard trigger != .test else {
                // A test proves the chain once a contact has it; nobody needs tracking.
                trackingUntil = nil
                trackingAwaitsDelivery = nil
                return [move(to: .emergencySent, "delivery confirmed"), .tracking(on: false)] + resume(reason: "test alarm delivered")
            }
            return [move(to: .emergencySent, "delivery confirmed")]
        case .position(let latitude, let longitude):
            latestPosition = Position(latitude: latitude, longitude: longitude)
            return trackingUpdate(at: now)
        case .tick:
            return tick(at: now)
        }
    }

    private var everSent: Bool { sendingStarted != nil }

    private mutating func raise(_ kind: EmergencyTrigger, countdown: Double, fromKeychain: Bool, at now: Int64) -> [WorkflowAction] {
        guard isProtecting else { return [.ignored("protection is not active")] }
        // A fall or an SOS while the duress PIN hides the emergency: the contacts, who know, hear
        // of it at once (there is no countdown to show).
        if underDuress, kind != .test { return [.send(.alert)] }
        guard state == .noEmergency else {
            // A real fall or SOS during a test alarm (which may be stuck sending for want of a
            // network): the test ends where it is and the real emergency starts, with its own
            // countdown and messages. Ignored, it went out as a test, or not at all.
            if trigger == .test, kind != .test {
                return resume(reason: "a real emergency during the test alarm")
                    + raise(kind, countdown: countdown, fromKeychain: fromKeychain, at: now)
            }
            // The last emergency is over (its tracking finished, or the wearer said they did not
            // fall) and the survey may never be answered: a new fall or SOS is a new emergency.
            // Ignored, the device protected nobody until someone pressed resume.
            if state == .emergencyEnded, kind != .test {
                return resume(reason: "a new emergency after the last one ended")
                    + raise(kind, countdown: countdown, fromKeychain: fromKeychain, at: now)
            }
            if state == .alertCountdown, kind != .test { corroborated = true }
            return [.ignored("an emergency is already in progress")]
        }
        trigger = kind
        corroborated = nil
        raisedFromKeychain = fromKeychain
        countdownDeadline = now + nanoseconds(countdown)
        disarmed = false
        underDuress = false
        delivered = false
        sendingStarted = nil
        alarmOn = true
        let reason = switch kind {
        case .automaticFall: "fall detected"
        case .automaticCrash: "crash detected"
        case .manual: fromKeychain ? "SOS from the keychain" : "SOS"
        case .test: "test alarm"
        }
        return [move(to: .alertCountdown, reason), .alarm(on: true), .keychainBeep(on: true)]
    }

    /// A fall's follow-up stage reporting during its countdown, while nobody has answered the
    /// alarm. Up again (recovered, or up before lying still): the wearer can speak for
    /// themselves, so the countdown is withdrawn and nothing goes out by itself, as Philips'
    /// self-recovery window does. Neither still nor up within the stillness stage's window (timed
    /// out): a profile asks for that stage only where an alert should wait for stillness
    /// (cycling; not walking, where an older person who fell may move without getting up), so it
    /// is withdrawn too, as Samsung's 30 s stillness and Apple's wait-while-moving do. An SOS stays
    /// one press away. Exactly what the bench's staged rows count. A wearer who answered already
    /// ("Call 112") decided for themselves, a countdown another detection or an SOS backed (a
    /// crash) is more than a fall, and an alert that stands (stayed down, lay still) must go out.
    private mutating func followUp(_ kind: FollowUpOutcome.Kind) -> [WorkflowAction] {
        switch kind {
        case .recovered, .gotUp, .timedOut:
            guard state == .alertCountdown, trigger == .automaticFall else {
                return [.ignored("a follow-up withdraws only a fall's countdown")]
            }
            guard alarmOn else { return [.ignored("the wearer answered the alarm; the countdown goes on")] }
            guard corroborated != true else { return [.ignored("another detection backs this alarm; the countdown goes on")] }
            countdownDeadline = nil
            return silence() + [move(to: .noEmergency, kind == .timedOut ? "neither still nor up after the fall" : "up again after the fall")]
        case .confirmed, .stayedDown:
            return []
        }
    }

    private mutating func tick(at now: Int64) -> [WorkflowAction] {
        var actions: [WorkflowAction] = []
        if state == .alertCountdown, let deadline = countdownDeadline, now >= deadline {
            countdownDeadline = nil
            sendingStarted = now
            trackingUntil = nil
            trackingAwaitsDelivery = true
            lastLocationSent = now
            lastSentPosition = latestPosition
            if raisedFromKeychain { nextKeychainRepeat = now + nanoseconds(settings.keychainRepeatInterval) }
            actions += [move(to: .emergencySending, "countdown ended"), .send(.alert), .tracking(on: true)]
        }
        if state == .emergencySending, !delivered, let started = sendingStarted,
            now - started >= nanoseconds(settings.sendingFailureTimeout)
        {
            actions.append(move(to: .emergencySendingFailed, "no delivery confirmed for \(Int(settings.sendingFailureTimeout / 60)) min"))
        }
        if let due = nextKeychainRepeat, now >= due, state.hasSent {
            nextKeychainRepeat = now + nanoseconds(settings.keychainRepeatInterval)
            actions.append(.send(.keychainRepeat))
        }
        if isTracking {
            if let until = trackingEndsAt, now >= until {
                trackingUntil = nil
                trackingAwaitsDelivery = nil
                actions += [.tracking(on: false), .send(.trackingStopped)]
                if state == .emergencySent { actions.append(move(to: .emergencyEnded, "tracking finished")) }
            } else {
                actions += trackingUpdate(at: now)
            }
        }
        if underDuress, !isTracking, state == .emergencyEnded || (state == .emergencySent && delivered) {
            // The hidden emergency has run its course: the device, which has shown no emergency
            // all along, protects again (before, it ignored every fall and SOS from then on).
            underDuress = false
            actions += resume(reason: "the emergency hidden by the duress PIN is over")
        }
        return actions
    }

    /// A location update after moving far enough, or when the interval has passed. Moves are
    /// sent a minute apart at most: in an ambulance at 15 m/s, 50 m pass every 4 s, and a poor
    /// fix's jitter can pass them standing still; each would be an SMS to every contact. A move
    /// held back goes at the tick that ends the minute, even if no fix comes after it (indoors).
    /// The first position after an alert that had none goes at once.
    private mutating func trackingUpdate(at now: Int64) -> [WorkflowAction] {
        guard isTracking, let position = latestPosition else { return [] }
        let far = lastSentPosition.map { Self.distance($0, position) >= settings.trackingDistance } ?? true
        let due = lastLocationSent.map { now - $0 >= nanoseconds(settings.trackingInterval) } ?? true
        let spaced = lastSentPosition == nil
            || lastLocationSent.map { now - $0 >= nanoseconds(min(Self.movedUpdateSpacing, settings.trackingInterval)) } ?? true
        guard (far && spaced) || due else { return [] }
        lastLocationSent = now
        lastSentPosition = position
        return [.send(.locationUpdate)]
    }

    private mutating func disarm(_ verdict: PINVerdict, at now: Int64) -> [WorkflowAction] {
        guard state != .noEmergency else { return [.ignored("nothing to disarm")] }
        switch verdict {
        case .wrong:
            return [.ignored("wrong PIN")]
        case .correct:
            disarmed = true
            nextKeychainRepeat = nil
            if state == .alertCountdown {
                countdownDeadline = nil
                return silence() + [move(to: .noEmergency, "disarmed with the PIN")]
            }
            return silence()
        case .duress:
            // Looks exactly like a disarm to whoever watches the device; the contacts learn the truth.
            disarmed = true
            underDuress = true
            // A test alarm is a real emergency from here on: its messages must not say "test",
            // and it ends as a real one does, with tracking.
            if trigger == .test { trigger = .manual }
            if state == .alertCountdown {
                // Send at once rather than wait out the countdown.
                countdownDeadline = now
                let sending = tick(at: now)
                return silence() + sending + [.send(.duress)]
            }
            return silence() + [.send(.duress)]
        }
    }

    private mutating func cancel(reason: String) -> [WorkflowAction] {
        if underDuress { return [] } // the wearer sees a cancel; the emergency goes on
        var actions = silence()
        if isTracking {
            trackingUntil = nil
            trackingAwaitsDelivery = nil
            actions.append(.tracking(on: false))
        }
        nextKeychainRepeat = nil
        actions.append(.send(.allClear))
        actions.append(move(to: .emergencyEnded, reason))
        return actions
    }

    private mutating func resume(reason: String) -> [WorkflowAction] {
        if underDuress { return [] }
        var actions = silence()
        if isTracking {
            trackingUntil = nil
            trackingAwaitsDelivery = nil
            actions += [.tracking(on: false), .send(.trackingStopped)]
        }
        nextKeychainRepeat = nil
        trigger = nil
        sendingStarted = nil
        actions.append(move(to: .noEmergency, reason))
        return actions
    }

    private mutating func silence() -> [WorkflowAction] {
        guard alarmOn else { return [] }
        alarmOn = false
        return [.alarm(on: false), .keychainBeep(on: false)]
    }

    private mutating func move(to next: EmergencyState, _ reason: String) -> WorkflowAction {
        let action = WorkflowAction.transition(from: state, to: next, reason: reason)
        state = next
        return action
    }

    private func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

    /// Great-circle distance in metres (haversine; plenty for a 50 m threshold).
    /// Seconds at least between two location updates that a move sent.
    static let movedUpdateSpacing: Double = 60

    static func distance(_ a: Position, _ b: Position) -> Double {
        let r = 6_371_000.0
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(a.latitude * rad) * cos(b.latitude * rad) * s2 * s2
        return 2 * r * asin(min(1, h.squareRoot()))
    }
}

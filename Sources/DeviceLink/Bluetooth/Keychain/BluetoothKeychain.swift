import FallDetect
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The wearer's Bluetooth LE keychain: connects, sets the tag up, turns its notifications into
/// press patterns, keeps the beeper in the state the workflow asks for, and reconnects by itself
/// with backoff when the link drops. Everything runs as one loop over one inbox, so a press, a
/// drop and a beeper change are handled in the order they happened.
public final class BluetoothKeychain: KeychainLink {
    public let summary: String
    public let events: AsyncStream<KeychainEvent>

    private let connector: any KeychainConnector
    private let profile: KeychainProfile
    private let reconnect: KeychainReconnect
    private let beepRefresh: Double
    private let batteryReadInterval: Double
    private let output: AsyncStream<KeychainEvent>.Continuation
    private let inbox: AsyncStream<Input>
    private let post: AsyncStream<Input>.Continuation
    private let shared: Mutex<KeychainLinkSnapshot>
    private let classifier: Mutex<PressClassifier>
    private let logger = Logger(label: "detectord.keychain")

    enum Input: Sendable {
        case attempt
        /// The button is subscribed: its presses are served from here on.
        case buttonReady(ATTBearer, KeychainSession)
        /// The whole set-up is done (or was cut short).
        case opened(ATTBearer, KeychainSession)
        case failed(String)
        case att(ATTBearerEvent, ATTBearer)
        case deadline
        case beep(Bool)
        case testBeep(Double)
        case testBeepEnd
        case refresh
        case readBattery
        case stop
    }

    /// - Parameters:
    ///   - beepRefresh: while beeping, the alert level is written again this often: some tags
    ///     stop by themselves after a while.
    ///   - batteryReadInterval: a battery level the tag does not notify is read again this often,
    ///     so a battery running down over weeks of one link is still seen.
    public init(summary: String, connector: any KeychainConnector, profile: KeychainProfile = KeychainProfile(),
                timing: PressTiming = PressTiming(), decidesSingleAtOnce: Bool = false,
                reconnect: KeychainReconnect = KeychainReconnect(), beepRefresh: Double = 10, batteryReadInterval: Double = 3600) {
        self.summary = summary
        self.connector = connector
        self.profile = profile
        self.reconnect = reconnect
        self.beepRefresh = beepRefresh
        self.batteryReadInterval = batteryReadInterval
        (events, output) = AsyncStream.makeStream(of: KeychainEvent.self, bufferingPolicy: .unbounded)
        (inbox, post) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        shared = Mutex(KeychainLinkSnapshot())
        classifier = Mutex(PressClassifier(timing: timing, decidesSingleAtOnce: decidesSingleAtOnce))
    }

    /// What a timer is for: each holds at most one pending timer, and scheduling one replaces the
    /// last. Two refresh chains would write the beeper twice as often (a drain on the tag's
    /// battery during a long alarm), and timers kept in a list would pile up over months of
    /// reconnection attempts.
    private enum TimerSlot: Hashable {
        case attempt, deadline, refresh, testBeepEnd, batteryRead
    }

    /// Whether a drop with `open` presses still being classified is the tag switched off by a
    /// long press (whose button sends one notification, then the tag ends the link, in its
    /// set-up too), so that press is no SOS. Two presses or more are the wearer's; so is a press
    /// before a link lost to the radio (a supervision timeout: a body over the tag), one that
    /// stopped answering (a request timed out) or one we closed: those patterns stand and are
    /// decided when their window closes.
    static func switchedOff(open: Int, by error: ATTError?) -> Bool {
        guard open == 1 else { return false }
        switch error {
        // The peer ended the link (HCI 0x13–0x15), or the socket did not say why.
        case .disconnected(let code)?: return code == ECONNRESET || code == 0
        // nil: we closed the bearer (a set-up cut short); the press is the wearer's.
        default: return false
        }
    }

    /// How long a link must last for a drop to start the backoff afresh.
    static let stableLinkSeconds = 30.0

    /// What the link is doing, for status.
    public var snapshot: KeychainLinkSnapshot { shared.withLock { $0 } }

    /// Runs until `stop()`: connect, serve, reconnect.
    public func run() async {
        post.yield(.attempt)
        // `ready` once the optional set-up steps are done: until then only the button is served,
        // and the link is no connection yet (a drop then is a failed attempt).
        var link: (bearer: ATTBearer, session: KeychainSession, openedAt: Int64, ready: Bool)?
        var failures = 0
        var stopped = false
        var beeping = false
        var testBeeping = false
        var lastNotification: Int64?
        // Kept so a stop cancels it: left to run, a connect still waiting (up to 15 s) could
        // reach a tag just re-paired and hold its only link while the new keychain gets EBUSY.
        var attempt: Task<Void, Never>?
        var timers: [TimerSlot: Task<Void, Never>] = [:]
        defer { for timer in timers.values { timer.cancel() } }

        func after(_ seconds: Double, _ input: Input, in slot: TimerSlot) {
            timers[slot]?.cancel()
            timers[slot] = Task { [post] in
                try? await Task.sleep(for: .milliseconds(Int(max(0, seconds) * 1000)))
                if !Task.isCancelled { post.yield(input) }
            }
        }
        // Beeper writes go out one after another, each after the last has left: two writes in
        // separate tasks could overtake each other and leave the tag beeping.
        var lastAlert: Task<Void, Never>?
        func setAlert(_ level: UInt8) {
            guard let session = link?.session else { return }
            let previous = lastAlert
            lastAlert = Task { [logger] in
                await previous?.value
                do throws(ATTError) { try await session.setAlert(level) } catch {
                    logger.warning("keychain beeper: \(error)")
                }
            }
        }
        func scheduleDeadline() {
            if let deadline = classifier.withLock({ $0.deadline }) {
                after(Double(deadline - ATTBearer.monotonicNow()) / 1e9, .deadline, in: .deadline)
            }
        }

        for await input in inbox {
            switch input {
            case .attempt:
                guard link == nil, !stopped else { continue }
                shared.withLock { $0.attempts += 1 }
                attempt = Task { [connector, profile, reconnect, post, summary] in
                    do throws(KeychainSessionError) {
                        let socket: ATTSocket
                        do throws(ATTError) { socket = try await connector.connect(timeout: reconnect.connectTimeout) } catch {
                            throw .link(error)
                        }
                        let bearer: ATTBearer
                        do throws(ATTError) { bearer = try ATTBearer(socket: socket, label: summary, defaultTimeout: profile.requestTimeout) } catch {
                            throw .link(error)
                        }
                        do throws(KeychainSessionError) {
                            // A stop meanwhile (or already) closes the bearer, which ends the set-up's requests.
                            let opened: Result<KeychainSession, KeychainSessionError> = await withTaskCancellationHandler {
                                do throws(KeychainSessionError) {
                                    return .success(try await KeychainSession.open(bearer, profile: profile) { post.yield(.buttonReady(bearer, $0)) })
                                } catch {
                                    return .failure(error)
                                }
                            } onCancel: {
                                bearer.close()
                            }
                            let session = try opened.get()
                            // Stopped meanwhile: nobody will serve this link, so close it.
                            if case .terminated = post.yield(.opened(bearer, session)) { bearer.close() }
                        } catch {
                            bearer.close()
                            throw error
                        }
                    } catch {
                        let guidance = if case .link(let link) = error { L2CAPConnector.guidance(link) } else { String?.none }
                        post.yield(.failed(guidance.map { "\(error): \($0)" } ?? error.description))
                    }
                }
            case .buttonReady(let bearer, let session):
                // Ready as a stop was queued: nobody will serve this link.
                guard !stopped, link == nil else {
                    bearer.close()
                    continue
                }
                // Presses are served from now: a press during the optional steps that follow
                // waited for them, up to a request timeout each with a tag gone quiet.
                link = (bearer, session, ATTBearer.monotonicNow(), false)
                Task { [post] in
                    for await event in bearer.events { post.yield(.att(event, bearer)) }
                }
            case .opened(let bearer, let session):
                // Stopped, or this bearer closed during its set-up (already a failed attempt).
                guard !stopped, let current = link, current.bearer === bearer else {
                    bearer.close()
                    continue
                }
                link = (bearer, session, current.openedAt, true)
                // A set-up cut short (a timeout, the link dropping): its bearer has ended (closing
                // it again is harmless) and only the presses it brought are served. It is a
                // failed attempt, not a connection: no connected event and no drop, so a tag that
                // always goes quiet is reported lost in time.
                if session.cutShort != nil {
                    bearer.close()
                    continue
                }
                shared.withLock {
                    $0.connected = true
                    $0.lastError = nil
                    $0.connections += 1
                    if let battery = session.battery { $0.battery = battery }
                }
                output.yield(.connected)
                if let battery = session.battery { output.yield(.battery(percent: battery)) }
                if beeping || testBeeping { setAlert(beeping ? profile.alarmLevel : 1) }
                if beeping { after(beepRefresh, .refresh, in: .refresh) }
                if session.batteryHandle != nil, !session.batteryNotifies { after(batteryReadInterval, .readBattery, in: .batteryRead) }
            case .failed(let reason):
                failures += 1
                shared.withLock { $0.lastError = reason }
                // The drop itself was reported when it happened; failed attempts add no event,
                // only a log line now and then.
                if failures == 1 || failures % 10 == 0 { logger.info("keychain \(summary): \(reason)") }
                after(reconnect.delay(afterFailures: failures - 1), .attempt, in: .attempt)
            case .att(let event, let bearer):
                guard let current = link, current.bearer === bearer else { continue }
                switch event {
                case .notification(let handle, let value, let at), .indication(let handle, let value, let at):
                    if handle == current.session.buttonHandle {
                        shared.withLock { $0.notifications += 1 }
                        // A window that closed before this press is decided first, with its own
                        // time: its timer may not have run yet.
                        if let closed = classifier.withLock({ $0.poll(now: at) }) { emit(closed, receivedAt: lastNotification) }
                        if let press = classifier.withLock({ $0.press(at: at) }) { emit(press, receivedAt: at) }
                        lastNotification = at
                        scheduleDeadline()
                    } else if handle == current.session.batteryHandle, let level = value.first, level <= 100 {
                        // Above 100 is no percentage (some tags send 255 for "unknown"): taken as
                        // given, it hid a low battery.
                        shared.withLock { $0.battery = Int(level) }
                        output.yield(.battery(percent: Int(level)))
                    }
                case .closed(let error, let closedAt):
                    link = nil
                    // A window that closed before the drop is decided first, with its own time:
                    // its timer may not have run yet, and the drop did not cut that pattern.
                    if let closed = classifier.withLock({ $0.poll(now: closedAt) }) { emit(closed, receivedAt: lastNotification) }
                    let open = classifier.withLock { $0.openPresses }
                    let discarded = Self.switchedOff(open: open, by: error) ? classifier.withLock { $0.flush() } : 0
                    if discarded > 0 {
                        logger.info("keychain \(summary): \(discarded) press(es) followed by the link dropping, taken as the tag switched off by a long press")
                    }
                    if !current.ready || current.session.cutShort != nil {
                        let why = current.session.cutShort ?? error
                        post.yield(.failed("set-up cut short: \(why.map { "\($0)" } ?? "link closed")"))
                        continue
                    }
                    // A link that lasted is a fresh start; one that dropped soon after opening (a
                    // tag at the edge of range, a battery that browns out when the beeper is set)
                    // counts as a failed attempt, or the loop would reconnect without pause.
                    let lasted = Double(ATTBearer.monotonicNow() - current.openedAt) / 1e9
                    failures = lasted >= Self.stableLinkSeconds ? 0 : failures + 1
                    let reason = error?.description ?? "link closed"
                    shared.withLock {
                        $0.connected = false
                        $0.lastError = reason
                        $0.drops += 1
                    }
                    output.yield(.disconnected(reason: reason))
                    // At once after a link that lasted: an iTag advertises again right after a
                    // drop; backoff starts only when that attempt fails.
                    if failures == 0 { post.yield(.attempt) } else { after(reconnect.delay(afterFailures: failures - 1), .attempt, in: .attempt) }
                }
            case .deadline:
                if let press = classifier.withLock({ $0.poll(now: ATTBearer.monotonicNow()) }) { emit(press, receivedAt: lastNotification) }
                scheduleDeadline()
            case .beep(let on):
                guard on != beeping else { continue }
                beeping = on
                setAlert(on ? profile.alarmLevel : 0)
                if on { after(beepRefresh, .refresh, in: .refresh) }
            case .refresh:
                guard beeping else { continue }
                setAlert(profile.alarmLevel)
                after(beepRefresh, .refresh, in: .refresh)
            case .readBattery:
                // Only a link whose level does not notify is read; any other ends the chain.
                guard let current = link, let handle = current.session.batteryHandle, !current.session.batteryNotifies else { continue }
                Task { [post] in
                    // The answer takes a notification's path, with its checks, and only for this link.
                    if let value = try? await current.session.readBattery() {
                        post.yield(.att(.notification(handle: handle, value: value, receivedAt: ATTBearer.monotonicNow()), current.bearer))
                    }
                }
                after(batteryReadInterval, .readBattery, in: .batteryRead)
            case .testBeep(let seconds):
                testBeeping = true
                if !beeping { setAlert(1) }
                // A second test beep extends the first rather than being cut short by its end.
                after(seconds, .testBeepEnd, in: .testBeepEnd)
            case .testBeepEnd:
                testBeeping = false
                if !beeping { setAlert(0) }
            case .stop:
                stopped = true
                attempt?.cancel()
                // A pattern still in its window is dropped: decided now it could be the first
                // press of a double SOS taken as a single "I'm fine".
                link?.bearer.close()
                post.finish()
            }
        }
        link?.bearer.close()
        output.finish()
    }

    private func emit(_ press: KeychainPress, receivedAt: Int64?) {
        shared.withLock { $0.presses += 1 }
        output.yield(.press(press, receivedAt: receivedAt))
    }

    public func setBeeping(_ on: Bool) async { post.yield(.beep(on)) }

    /// A short beep on demand ("Is this your keychain?", `ctl beep`), independent of the alarm.
    public func testBeep(seconds: Double) { post.yield(.testBeep(seconds)) }

    public func stop() { post.yield(.stop) }
}

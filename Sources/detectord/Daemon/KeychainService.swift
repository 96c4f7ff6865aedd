import DeviceLink
import FallDetect
import ServiceLifecycle
import Synchronization

/// Joins the keychain to the workflow. Each press pattern goes to the workflow with the press
/// policy, which decides inside the workflow's transaction what it means in that state (a single
/// press raises an SOS by default; nothing disarms after sending). Battery readings are kept and
/// a low battery is told once a day; the beeper follows the alarm; a link lost for longer than
/// `linkLostWarning` is a health warning on the status, and the workflow tells the wearer when
/// configured. The link is made from the binding `detectord pair` stored, and made again on
/// `reload()` (after a pairing or a forget) without restarting the daemon.
final class KeychainService: Service {
    let policy: KeychainPressPolicy
    /// Seconds without the link before the status says the keychain cannot be found.
    let linkLostWarning: Double
    /// Seconds a link must stay up before a loss is over. A keychain at the edge of range that
    /// connects for a few seconds between minute-long losses is lost all along: each brief link
    /// ending the loss, the warning and the wearer's message, which need one unbroken loss,
    /// never came.
    let linkSteadySeconds: Double
    /// Seconds before the first retry of a binding that could not be read; each retry doubles
    /// it, up to `bindingRetryLimit`.
    let bindingRetrySeconds: Double
    static let bindingRetryLimit = 60.0
    /// Makes the link from the binding; nil when no keychain is paired, an error when the binding
    /// cannot be read.
    private let makeLink: @Sendable () throws -> (any KeychainLink)?
    private let workflow = Mutex<WorkflowService?>(nil)
    private let hub: EventHub
    private let current = Mutex<(any KeychainLink)?>(nil)
    private let state = Mutex(LinkState())
    private let beeping = Mutex(false)
    /// Beeper changes in order, sent by one task so they cannot overtake each other.
    private let beeps: AsyncStream<Bool>
    private let beepContinuation: AsyncStream<Bool>.Continuation
    private let reloads: AsyncStream<Void>
    private let reloadContinuation: AsyncStream<Void>.Continuation
    private let stopping = Mutex(false)
    /// Reloads asked for so far: one that came while a link was being made reached no link.
    private let reloadCount = Mutex(0)

    struct LinkState: Sendable {
        var paired = false
        var summary = ""
        var connected = false
        /// The link has been up since this search began.
        var everConnected = false
        /// When the link dropped or the search began (monotonic ns).
        var lostSince: Int64?
        var reason: String?
        var battery: Int?
        var presses = 0
        /// Links made so far: a link that was up long enough ends the loss only if it is still
        /// the same one.
        var links = 0
        /// Why the binding could not be read, while it cannot.
        var bindingError: String?
    }

    init(
        policy: KeychainPressPolicy, linkLostWarning: Double = 120, linkSteadySeconds: Double = 30, bindingRetrySeconds: Double = 1,
        hub: EventHub, makeLink: @escaping @Sendable () throws -> (any KeychainLink)?
    ) {
        self.policy = policy
        self.linkLostWarning = linkLostWarning
        self.linkSteadySeconds = linkSteadySeconds
        self.bindingRetrySeconds = bindingRetrySeconds
        self.makeLink = makeLink
        self.hub = hub
        (beeps, beepContinuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
        (reloads, reloadContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// One fixed link (tests, the simulated keychain).
    convenience init(
        link: any KeychainLink, hub: EventHub, policy: KeychainPressPolicy = try! KeychainPressPolicy(), linkLostWarning: Double = 0,
        linkSteadySeconds: Double = 0
    ) {
        self.init(policy: policy, linkLostWarning: linkLostWarning, linkSteadySeconds: linkSteadySeconds, hub: hub, makeLink: { link })
    }

    func connect(to workflow: WorkflowService) { self.workflow.withLock { $0 = workflow } }

    private func submit(_ command: WorkflowCommand) { workflow.withLock { $0 }?.submit(command) }

    /// The workflow's `keychainBeep` action.
    func beep(_ on: Bool) {
        // Under the flag's lock, so the stream's order is the flag's.
        beeping.withLock {
            $0 = on
            beepContinuation.yield(on)
        }
    }

    /// A short beep on demand; false when no keychain is paired.
    func testBeep(seconds: Double) -> Bool {
        guard let link = current.withLock({ $0 }) else { return false }
        link.testBeep(seconds: seconds)
        return true
    }

    /// Makes the link again from the stored binding (after `detectord pair`).
    func reload() {
        reloadCount.withLock { $0 += 1 }
        reloadContinuation.yield()
        current.withLock { $0 }?.stop()
    }

    var link: (any KeychainLink)? { current.withLock { $0 } }

    var status: [String: Any] {
        let s = state.withLock { $0 }
        if let error = s.bindingError {
            return ["state": "binding unreadable", "reason": error, "message": "the keychain's pairing cannot be read; retrying"]
        }
        guard s.paired else { return ["state": "not paired", "message": "pair a keychain: detectord pair"] }
        var report: [String: Any] = ["source": s.summary, "presses": s.presses]
        if let battery = s.battery {
            report["battery_percent"] = battery
            if battery < 20 { report["battery_warning"] = "Charge your keychain soon" }
        }
        if s.connected {
            report["state"] = "connected"
        } else {
            let lost = s.lostSince.map { Double(MonotonicTime.nowNanoseconds() - $0) / 1e9 } ?? 0
            report["state"] = lost >= linkLostWarning ? "cannot find the keychain" : "searching"
            report["lost_s"] = DaemonStatus.tenths(lost)
            if let reason = s.reason { report["reason"] = reason }
        }
        if let latencies = workflow.withLock({ $0 })?.pressLatencies, latencies.count > 0 {
            report["press_to_decision_ms"] = ["p50": Double(latencies.microseconds(atPercentile: 50)) / 1000,
                                              "p99": Double(latencies.microseconds(atPercentile: 99)) / 1000, "count": latencies.count]
        }
        if let bluetooth = current.withLock({ $0 }) as? BluetoothKeychain {
            let snapshot = bluetooth.snapshot
            report["connect_attempts"] = snapshot.attempts
            report["drops"] = snapshot.drops
            if !s.connected, let error = snapshot.lastError, L2CAPConnector.meansAdapterOff(error) {
                report["state"] = "adapter off"
                report["reason"] = error
            }
        }
        return report
    }

    func run() async throws {
        let beeper = Task { [self] in
            for await on in beeps { await current.withLock({ $0 })?.setBeeping(on) }
        }
        defer {
            beepContinuation.finish()
            beeper.cancel()
        }
        var reloadSignals = reloads.makeAsyncIterator()
        var bindingRetry = bindingRetrySeconds
        await withGracefulShutdownHandler {
            while !stopping.withLock({ $0 }) {
                let generation = reloadCount.withLock { $0 }
                let made: (any KeychainLink)?
                do {
                    made = try makeLink()
                } catch {
                    // A read that failed once (the disk, a lock held too long) is not "no
                    // keychain": taken as one, the SOS button stayed off until a reload, unsaid.
                    await bindingUnreadable(error, retryIn: bindingRetry, generation: generation)
                    bindingRetry = min(bindingRetry * 2, Self.bindingRetryLimit)
                    continue
                }
                bindingRetry = bindingRetrySeconds
                bindingReadAgain()
                guard let link = made else {
                    state.withLock { $0 = LinkState() }
                    current.withLock { $0 = nil }
                    guard await reloadSignals.next() != nil else { return }
                    continue
                }
                current.withLock { $0 = link }
                // A stop or a reload that came while the link was being made found no link to
                // stop: the daemon would hang at shutdown, or serve a keychain just forgotten.
                if stopping.withLock({ $0 }) || reloadCount.withLock({ $0 }) != generation { link.stop() }
                state.withLock { $0 = LinkState(paired: true, summary: link.summary, lostSince: MonotonicTime.nowNanoseconds()) }
                // Through the beeper's stream, in order with any change since: set directly, an
                // "on" read here could reach the new link after a later "off".
                beeping.withLock { if $0 { beepContinuation.yield(true) } }
                let runner = Task { await link.run() }
                let search = reportSearchIfItLasts(since: MonotonicTime.nowNanoseconds())
                for await event in link.events { handle(event) }
                await runner.value
                search?.cancel()
                current.withLock { $0 = nil }
            }
        } onGracefulShutdown: { [self] in
            stopping.withLock { $0 = true }
            reloadContinuation.finish()
            current.withLock { $0 }?.stop()
        }
    }

    /// Says once that the binding cannot be read, then waits `seconds`, or less when a reload or
    /// a stop comes.
    private func bindingUnreadable(_ error: any Error, retryIn seconds: Double, generation: Int) async {
        let reason = "cannot read the keychain's pairing: \(error)"
        let first = state.withLock { s in
            let first = s.bindingError == nil
            s = LinkState()
            s.bindingError = reason
            return first
        }
        current.withLock { $0 = nil }
        if first {
            hub.publish(DaemonEvent("keychain", at: WorkflowService.utcNow(), severity: .error,
                                    [("state", .string("binding unreadable")), ("reason", .string(reason))]))
        }
        let deadline = MonotonicTime.nowNanoseconds() + Int64(seconds * 1e9)
        while MonotonicTime.nowNanoseconds() < deadline, !stopping.withLock({ $0 }), reloadCount.withLock({ $0 }) == generation {
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Ends an unreadable binding's report once a read works again.
    private func bindingReadAgain() {
        let was = state.withLock { s in
            defer { s.bindingError = nil }
            return s.bindingError
        }
        guard was != nil else { return }
        hub.publish(DaemonEvent("keychain", at: WorkflowService.utcNow(), [("state", .string("binding read"))]))
    }

    /// The loss is over once link number `link` has stayed up `linkSteadySeconds`.
    private func endLoss(ifStillUp link: Int) {
        // Under the state's lock, as a drop's record is: the two cannot cross.
        state.withLock { s in
            guard s.connected, s.links == link else { return }
            s.lostSince = nil
            submit(.keychainLink(connected: true, sinceMonotonic: MonotonicTime.nowNanoseconds()))
        }
    }

    /// A keychain that never connects (its battery flat after a power cut, left at home) sends
    /// no event: only a drop records the keychain as lost for the workflow, which tells the
    /// wearer. So a search that lasts `linkLostWarning` from the link's start is recorded as lost
    /// since then. Not at once: every start and reload would note a loss and a return a few
    /// seconds apart. A fixed link (0, simulated and tests) has no search.
    private func reportSearchIfItLasts(since started: Int64) -> Task<Void, Never>? {
        guard linkLostWarning > 0 else { return nil }
        return Task { [self] in
            try? await Task.sleep(for: .seconds(linkLostWarning))
            guard !Task.isCancelled else { return }
            // Under the state's lock, as the connection's record is: it cannot land after it.
            state.withLock { state in
                guard !state.everConnected else { return }
                submit(.keychainLink(connected: false, sinceMonotonic: started))
            }
        }
    }

    private func handle(_ event: KeychainEvent) {
        let now = WorkflowService.utcNow()
        switch event {
        case .press(let press, let receivedAt):
            state.withLock { $0.presses += 1 }
            submit(.keychainPress(press, policy: policy, receivedAt: receivedAt))
        case .connected:
            let link = state.withLock {
                $0.connected = true
                $0.everConnected = true
                $0.reason = nil
                $0.links += 1
                return $0.links
            }
            hub.publish(DaemonEvent("keychain", at: now, [("state", .string("connected"))]))
            if linkSteadySeconds > 0 {
                Task { [self] in
                    try? await Task.sleep(for: .seconds(linkSteadySeconds))
                    endLoss(ifStillUp: link)
                }
            } else {
                endLoss(ifStillUp: link)
            }
        case .disconnected(let reason):
            // A loss that a brief link did not end goes on from when it began.
            let since = state.withLock { s -> Int64 in
                s.connected = false
                s.reason = reason
                let since = s.lostSince ?? MonotonicTime.nowNanoseconds()
                s.lostSince = since
                return since
            }
            hub.publish(DaemonEvent("keychain", at: now, severity: .warning, [("state", .string("lost")), ("reason", .string(reason))]))
            submit(.keychainLink(connected: false, sinceMonotonic: since))
        case .battery(let percent):
            state.withLock { $0.battery = percent }
            submit(.keychainBattery(percent: percent))
        }
    }
}

import DeviceLink
import FallDetect
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import ServiceLifecycle

/// The live daemon: sensor source → ring → detector thread → workflow and its store → outbox
/// dispatcher → channels, with GNSS beside it, the local API in front and systemd around it.
/// swift-service-lifecycle runs the parts; SIGTERM or SIGINT stops them in reverse order of
/// start (the sensor first, the API last), so nothing in flight is lost. SIGHUP is ignored.
struct Daemon {
    let plan: DaemonPlan
    let logger: Logger

    func run() async throws {
        let notifier = SystemdNotifier()
        let hub = EventHub(logger: logger)
        let hangUp = Self.ignoreHangUp(hub: hub)
        defer { hangUp?.cancel() }
        let metrics = DaemonMetrics()
        var (store, storageProblem) = try Self.openStore(plan.databasePath)
        let startedAt = WorkflowService.utcNow()
        // The configuration file is the authority on who is protected and who is told.
        let adopt = { (store: WorkflowStore) throws -> [WorkflowAction] in
            try store.transaction { tx in
                try tx.adopt(
                    person: plan.person, contacts: plan.contacts, pinHash: plan.pinHash, duressHash: plan.duressHash, settings: plan.workflowSettings,
                    gnssConfigured: { if case .none = plan.gnss { false } else { true } }(), at: startedAt)
            }
        }
        let adopted: [WorkflowAction]
        do {
            adopted = try adopt(store)
        } catch where store.isDurable {
            // A file that opens but takes no write (a full disk after a power cut left its log
            // behind): as when it cannot be opened, a copy in memory protects, where exiting
            // would have systemd restart the daemon into the same wall.
            store = try WorkflowStore.inMemoryCopy(of: plan.databasePath)
            storageProblem = Self.memoryCopyProblem(error)
            adopted = try adopt(store)
        }
        if let storageProblem {
            hub.publish(DaemonEvent("storage", at: startedAt, severity: .error, [("message", .string(storageProblem))]))
        }
        // Someone protected with no PIN (the file gives [person] but no [pin], and none was set on
        // the page): as on a fresh device, Settings are open to whoever reaches the page, and a
        // sent alarm cannot be called off. Said at each start until a PIN is set.
        if let (protecting, setUp) = try? store.snapshot({ tx in (try tx.workflow().isProtecting, try tx.isSetUp()) }), protecting, !setUp {
            hub.publish(DaemonEvent("setup", at: startedAt, severity: .warning, [("message", .string(
                "no PIN is set: Settings are open to anyone who reaches the page, and a sent alarm cannot be called off; set one on the page or with [pin]"))]))
        }

        let model = try plan.fallModelPath.map { path throws(FallDetectError) in try FallModelFile.load(path: path) }
        // For the rate and ranges asked for; a chip set to others has it rebuilt (`DetectorSwitch.follow`).
        let asked = SensorScale(rateHz: plan.source.sampleRate, accelerometerRange: plan.source.accelerometerRange, gyroscopeRange: plan.gyroscopeRange)
        let makePipeline: @Sendable (DetectionProfile, SensorScale) throws -> DetectionPipeline = { [axes = plan.axes] profile, scale in
            var pipeline = try DetectionPipeline(
                profile: profile, sampleRate: Float(scale.rateHz), accelerometerRange: scale.accelerometerRange,
                gyroscopeRange: scale.gyroscopeRange, fallModel: model)
            pipeline.mounting = try axes.estimator(sampleRate: Float(scale.rateHz))
            return pipeline
        }
        // The page's choice of profile holds unless the file names one.
        let choice = plan.detectorFromFile ? nil : try store.snapshot({ try $0.detectorChoice() })
        let (profile, sensitivity, pipeline) = try Self.startingDetector(
            choice, otherwise: (plan.profile, plan.sensitivity), make: { try makePipeline($0, asked) },
            hub: hub, at: startedAt)
        // Four seconds of samples: the detector can fall that far behind before anything drops.
        // Sources keep their rate within 10…10000 Hz, so this stays between 256 and 65536.
        let capacity = min(1 << 16, max(256, Int(min(plan.source.sampleRate, 10_000) * 4).nextPowerOfTwo))
        let ring = SampleRing(capacity: capacity)
        let status = DaemonStatus(
            store: store, sensorSummary: plan.source.summary, nominalRate: plan.source.sampleRate, profile: profile.name,
            gnssSummary: plan.gnss.summary, sensorCondition: { [source = plan.source] in source.condition },
            channelSignal: { [channels = plan.channels] in (channels[$0] as? GSMModemChannel)?.signalDBm }, storageProblem: storageProblem)
        let detectorSwitch = DetectorSwitch(
            profile: profile, sensitivity: sensitivity, scale: asked, onChange: { status.setProfile($0) }, make: makePipeline)

        let keychainFactory = plan.keychain == nil && plan.keychainSettings.kind != .none
            ? try KeychainLinkFactory(settings: plan.keychainSettings, store: store) : nil
        let keychain: KeychainService? = if let link = plan.keychain {
            KeychainService(link: link, hub: hub)
        } else if let keychainFactory {
            KeychainService(policy: keychainFactory.policy, linkLostWarning: plan.keychainSettings.linkLostWarning, hub: hub,
                            makeLink: { try keychainFactory.makeLink() })
        } else {
            nil
        }
        // One clock for both: a step moves the pending deadlines once, before either times anything.
        let wallClock = WallClock(store: store, hub: hub)
        status.attach(clock: wallClock)
        let dispatcher = DispatchService(
            store: store, channels: plan.channels, isTest: false, deviceID: Self.deviceID(), hub: hub, metrics: metrics,
            clock: wallClock, beep: { keychain?.beep($0) })
        let workflow = WorkflowService(
            store: store, hub: hub, metrics: metrics, demo: plan.demo, notWornMessageAfter: plan.notWornMessageAfter,
            sensorFaultMessageAfter: plan.sensorFaultMessageAfter,
            keychainLostMessageAfter: keychain == nil ? nil : plan.keychainSettings.linkLostMessage,
            positionRetention: plan.positionRetention, wakeDispatcher: { dispatcher.wake() }, beep: { keychain?.beep($0) },
            rearmDetector: { detectorSwitch.rearm() }, clock: wallClock)
        keychain?.connect(to: workflow)
        status.attach(keychain: keychain)

        // The recording is optional; protection is not: a file that cannot be written (a full card,
        // a read-only path) is told, and the daemon runs without it.
        let recorder: SensorRecorder? = plan.recordPath.flatMap { path in
            do {
                return try SensorRecorder(
                    path: path, info: SensorRecorder.info(source: plan.source, gyroscopeRange: plan.gyroscopeRange, title: "detectord run"),
                    failed: { error in
                        hub.publish(DaemonEvent("recording", at: WorkflowService.utcNow(), severity: .error, [
                            ("message", .string("writing the recording failed: \(error.description); what cannot be written is lost, and marked as a gap once writing works again")),
                        ]))
                    })
            } catch {
                hub.publish(DaemonEvent("recording", at: WorkflowService.utcNow(), severity: .error, [
                    ("message", .string("not recording: \(error)")),
                ]))
                return nil
            }
        }
        // The detector's log lines leave its thread through a queue of their own: the log writes to
        // stderr, which blocks while journald stalls (a slow SD card), and the detector must go on
        // judging samples meanwhile (the ring holds 4 s), follow-ups and a second fall included.
        let detectorLog = DispatchQueue(label: "detectord.detector-log")
        let publish: @Sendable (DaemonEvent) -> Void = { event in detectorLog.async { hub.publish(event) } }
        let detector = DetectorLoop(ring: ring, pipeline: pipeline, stallSeconds: plan.stallSeconds, metrics: metrics, recorder: recorder) { output in
            let now = WorkflowService.utcNow()
            switch output {
            case .detection(let event):
                // To the workflow before the log line: the emergency must not wait for it. The
                // incident's history shows what the detector saw.
                workflow.submit(.note(type: "evidence", payload: "\(event.detector): \(event.summary)"))
                workflow.submit(.input(event.workflowInput, origin: "detector", reply: nil))
                metrics.detection(event)
                publish(DaemonEvent(
                    "detection", at: now, severity: .notice,
                    [("kind", .string(event.kind.rawValue)), ("detector", .string(event.detector)),
                     ("confidence", .number((Double(event.confidence) * 100).rounded() / 100)), ("summary", .string(event.summary))]))
            case .followUp(let outcome):
                let after = Double(outcome.timestampNanoseconds - outcome.event.timestampNanoseconds) / 1e9
                publish(DaemonEvent(
                    "follow_up", at: now,
                    [("outcome", .string(outcome.kind.rawValue)), ("detection", .string(outcome.event.kind.rawValue)),
                     ("seconds_after", .number(DaemonStatus.tenths(after)))]))
                if let input = outcome.workflowInput { workflow.submit(.input(input, origin: "detector", reply: nil)) }
            case .sensorStalled(let seconds):
                let reason = plan.source.condition?.fault.map { ": " + $0 } ?? ""
                publish(DaemonEvent("sensor_fault", at: now, severity: .warning, [("message", .string("no sample for \(DaemonStatus.tenths(seconds)) s\(reason)"))]))
                workflow.submit(.sensorFault(isFaulty: true, sinceMonotonic: MonotonicTime.nowNanoseconds() - Int64(seconds * 1e9)))
            case .sensorResumed(let seconds):
                // The workflow's fault stays until the samples are steady (`sensorSteady`).
                publish(DaemonEvent("sensor_recovered", at: now, [("message", .string("samples again after \(DaemonStatus.tenths(seconds)) s"))]))
            case .sensorSteady, .sensorEndedWhileStalled:
                // Clears the fault, one the database kept from before this process included
                // (nothing when none), or one a source raised by ending while silent.
                workflow.submit(.sensorFault(isFaulty: false, sinceMonotonic: MonotonicTime.nowNanoseconds()))
            case .wear(let change):
                // The change is on the samples' clock; its age is what carries over.
                let moment = MonotonicTime.nowNanoseconds()
                let since = change.isWorn ? moment : moment &- (change.timestampNanoseconds &- change.sinceNanoseconds)
                workflow.submit(.wear(isWorn: change.isWorn, sinceMonotonic: since))
            }
        }
        status.attach(detector: detector)
        detectorSwitch.attach(detector)
        let sourceEnded = OnceFlag()
        let pump = SensorPump(source: plan.source, ring: ring, detector: detector) { result in
            let now = WorkflowService.utcNow()
            switch result {
            case .success(.exhausted):
                sourceEnded.raise()
                detector.sourceDidEnd()
                if case .recording(let recorded) = plan.gnss { recorded.finish() }
                hub.publish(DaemonEvent("sensor_ended", at: now, [("message", .string("the sensor source has ended (a replay, or a simulated chip's motion)"))]))
            case .success(.stopped):
                break
            case .failure(let error):
                detector.statistics.withLock { $0.health = .failed(error.description) }
                workflow.submit(.sensorFault(isFaulty: true, sinceMonotonic: MonotonicTime.nowNanoseconds()))
                hub.publish(DaemonEvent("sensor_fault", at: now, severity: .error, [("message", .string(error.description))]))
            }
        }

        var pressSimulated: (@Sendable (KeychainPress) -> Bool)?
        var simulateKeychain: (@Sendable (Bool?, Int?) -> Bool)?
        if let keychainFactory, keychainFactory.radio != nil {
            pressSimulated = { keychainFactory.pressSimulated($0) }
            simulateKeychain = { keychainFactory.simulate(inRange: $0, battery: $1) }
        }
        // The page is served when it is found; without it the API still works (and says so).
        let page: WebPage?
        do { page = try WebPage.load() } catch {
            page = nil
            hub.publish(DaemonEvent("warning", at: startedAt, severity: .warning, [("message", .string(error.description))]))
        }
        // Other machines need the login: a first start that listens beyond loopback makes the token
        // and prints it once (`detectord ctl token` makes a new one).
        let tokens = LoginTokens(store: store)
        let loopbackOnly = APISettings(host: plan.apiHost, port: plan.apiPort).isLoopbackOnly
        if !loopbackOnly, let token = try tokens.issueIfMissing() {
            hub.publish(DaemonEvent("login_token", at: startedAt, severity: .notice, [
                ("token", .string(token)), ("message", .string("log in to the page from other machines with this token; it is shown only now")),
            ]))
        }
        let pairingRadio: (@Sendable () -> any KeychainRadio)?
        switch plan.keychainSettings.kind {
        case .none: pairingRadio = nil
        // Its own copy of the simulated neighbourhood, whose tags press themselves when beeped.
        case .simulated:
            pairingRadio = { () -> any KeychainRadio in
                if let radio = try? SimulatedKeychainRadio.demo() { return radio }
                return KernelKeychainRadio()
            }
        default: pairingRadio = { () -> any KeychainRadio in KernelKeychainRadio() }
        }
        // Wrong tries per client: disarming's, settings' and the login's, each counted apart.
        let limiter = PINRateLimiter()
        let setup = SetupRoutes(
            workflow: workflow, store: store, limiter: limiter,
            fileManaged: .init(person: plan.person != nil, contacts: plan.contacts != nil, detector: plan.detectorFromFile, pin: plan.pinHash != nil,
                               keychain: plan.keychainSettings.address != nil),
            contactChannels: plan.contactChannels, gnssConfigured: { if case .none = plan.gnss { false } else { true } }(),
            detector: detectorSwitch, pairingRadio: pairingRadio, keychainProfile: plan.keychainSettings.profile, keychain: keychain)
        let routes = APIRoutes(workflow: workflow, status: status, hub: hub, metrics: metrics, keychain: keychain,
                               pressSimulatedKeychain: pressSimulated, simulateKeychain: simulateKeychain, page: page,
                               setup: setup, tokens: loopbackOnly ? nil : tokens, limiter: limiter, secure: plan.tls != nil)
        // A connection that sends nothing for this long, between requests or halfway through
        // one, is closed: otherwise a client on the network that opens connections and leaves
        // them (slowloris) would use up the daemon's descriptors, which its database needs too.
        // A response being sent (the event stream, a scan) is never cut.
        let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(Self.apiIdleSeconds)))
        let server: HTTPServerBuilder
        if let tls = plan.tls {
            do {
                let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
                let configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMFile(tls.certificate).map { .certificate($0) }, privateKey: .privateKey(key))
                server = try HTTPServerBuilder.tls(http1, tlsConfiguration: configuration)
            } catch {
                throw FallDetectError(.invalidArgument, "cannot use the certificate for HTTPS: \(error)", path: tls.certificate, field: "api.certificate")
            }
        } else {
            server = http1
        }
        let scheme = plan.tls == nil ? "http" : "https"
        let api = Application(
            router: routes.router(), server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(plan.apiHost, port: plan.apiPort), serverName: "detectord",
                // Beyond this many, new connections wait in the kernel's queue until one closes,
                // so no client can use up the descriptors the database and the sensor need.
                availableConnectionsDelegate: MaximumAvailableConnections(Self.apiMaximumConnections)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? plan.apiPort
                hub.publish(DaemonEvent("api", at: WorkflowService.utcNow(), [("url", .string("\(scheme)://\(plan.apiHost):\(port)/api/status"))]))
                notifier.ready(status: "detecting with the \(profile.name) profile; API on \(plan.apiHost):\(port)")
            },
            logger: Logger(label: "detectord.api", factory: { DaemonLogHandler(label: $0).with(level: .warning) }))

        plan.sensorNotices.attach { notice in
            switch notice {
            case .text(let text):
                hub.publish(DaemonEvent("sensor", at: WorkflowService.utcNow(), [("message", .string(text))]))
            case .gap(let gap):
                recorder?.append(gap)
                hub.publish(DaemonEvent("sensor_gap", at: WorkflowService.utcNow(), severity: .warning,
                                        [("lost_samples", .int(Int(gap.value))), ("reason", .string(gap.text))]))
            case .configured(let chip):
                recorder?.chipConfigured(chip)
                do throws(FallDetectError) {
                    try detectorSwitch.follow(chip)
                } catch {
                    hub.publish(DaemonEvent("error", at: WorkflowService.utcNow(), severity: .error, [("message", .string(
                        "\(error.message); the detector keeps its windows for \(ProgressLine.fixed(detectorSwitch.scale.rateHz, 2)) Hz"))]))
                }
            }
        }
        hub.publish(DaemonEvent(
            "start", at: startedAt, severity: .notice,
            [("version", .string(DetectordVersion.current)), ("sensor", .string(plan.source.summary)),
             ("rate_hz", .number(plan.source.sampleRate)), ("profile", .string(profile.name)),
             ("detectors", .string(pipeline.detectorNames.joined(separator: "+"))), ("gnss", .string(plan.gnss.summary)),
             ("channels", .string((["console"] + plan.channels.keys.filter { $0 != "console" }.sorted()).joined(separator: ","))),
             ("database", .string(plan.databasePath))]
                + (plan.demo ? [("demo", .string("countdowns shortened for a demonstration"))] : [])))
        for action in adopted {
            if case .warning(let text) = action { hub.publish(DaemonEvent("warning", at: startedAt, severity: .warning, [("message", .string(text))])) }
        }

        // Started in this order, stopped in the reverse: the sensor stops first, the API last.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: APIServerService(server: api) { error, retry in
                let reason = "the API cannot listen on \(plan.apiHost):\(plan.apiPort): \(error)"
                hub.publish(DaemonEvent("error", at: WorkflowService.utcNow(), severity: .error, [("message", .string(
                    "\(reason); detection, the keychain and alerts go on without the page and ctl; trying again in \(ProgressLine.fixed(retry, 0)) s"))]))
                // systemd waits for READY=1 only so long before it stops the unit; the protection is up.
                notifier.ready(status: "detecting with the \(profile.name) profile; \(reason)")
            }, serviceName: "api"),
            .init(service: workflow, serviceName: "workflow"),
            .init(service: dispatcher, serviceName: "dispatcher"),
            .init(service: WatchdogService(notifier: notifier, status: status, hub: hub, statusEvery: plan.statusEvery), serviceName: "watchdog"),
            .init(service: keychain.map { $0 as any Service } ?? IdleService(), successTerminationBehavior: .ignore, serviceName: "keychain"),
            .init(service: GNSSService(choice: plan.gnss, detector: detector, workflow: workflow, status: status, hub: hub),
                  successTerminationBehavior: .ignore, serviceName: "gnss"),
            .init(service: WorkerThread(name: "detector", wake: { detector.signalStop() }) { detector.run(shouldStop: $0) }, serviceName: "detector"),
            .init(service: WorkerThread(name: "sensor") { pump.run(shouldStop: $0) }, serviceName: "sensor"),
        ]
        if let keychainFactory, keychainFactory.radio != nil, !plan.keychainSettings.simulated.presses.isEmpty {
            services.append(.init(service: ScriptService { await keychainFactory.playScript() }, successTerminationBehavior: .ignore, serviceName: "keychain-script"))
        }
        if plan.exitWhenIdle, plan.sourceIsFinite {
            services.append(.init(service: IdleExitService(store: store, sourceEnded: sourceEnded, hub: hub), successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "idle-exit"))
        }
        var configuration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
            logger: Logger(label: "detectord.lifecycle", factory: { DaemonLogHandler(label: $0).with(level: .warning) }))
        // Whatever still holds the stop after this is cancelled, well inside systemd's 90 s
        // (TimeoutStopSec), so the database closes and the last line is `stop`, not a SIGKILL.
        configuration.maximumGracefulShutdownDuration = .seconds(12)
        let group = ServiceGroup(configuration: configuration)
        // A service that fails ends the group, but the recording is still closed (its header
        // rewritten) and the `stop` line said before the error is thrown on.
        var failure: (any Error)?
        do { try await group.run() } catch { failure = error }
        notifier.stopping()
        // The detector's last lines before the `stop` line.
        detectorLog.sync {}
        // The sensor's last notices (a gap goes into the recording too) before the recording ends.
        plan.sensorNotices.flush()
        if let recorder {
            do {
                let totals = try recorder.close()
                hub.publish(DaemonEvent("recording", at: WorkflowService.utcNow(), [
                    ("path", .string(recorder.path)), ("samples", .int(totals.samples)), ("fixes", .int(totals.fixes)),
                    ("dropped_samples", .int(totals.droppedSamples)),
                ]))
            } catch {
                hub.publish(DaemonEvent("recording", at: WorkflowService.utcNow(), severity: .error, [("message", .string(error.description))]))
            }
        }
        let live = status.liveStatistics()
        hub.publish(DaemonEvent(
            "stop", at: WorkflowService.utcNow(), severity: .notice,
            [("samples", .int(Int(live.samples))), ("dropped", .int(Int(live.dropped))), ("detections", .int(live.detections)),
             ("state", .string((try? store.workflow().displayedState.rawValue) ?? "unknown"))]))
        hub.finish()
        if let failure { throw failure }
    }

    /// SIGHUP's default ends the process, and systemd counts that as a clean exit, which
    /// `Restart=on-failure` leaves down: a `kill -HUP` after editing the file would stop the
    /// protection. The file is read only at the start, so the daemon says so and goes on.
    /// Started by hand on a terminal (outside systemd), a hang-up still ends it: a dropped SSH
    /// session must not leave it running detached, holding the bus, the database and the port.
    static func ignoreHangUp(hub: EventHub) -> (any DispatchSourceSignal)? {
        guard ProcessInfo.processInfo.environment["INVOCATION_ID"] != nil || isatty(STDERR_FILENO) == 0 else { return nil }
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP)
        source.setEventHandler {
            hub.publish(DaemonEvent("warning", at: WorkflowService.utcNow(), severity: .warning, [
                ("message", .string("SIGHUP ignored: the configuration is read only at the start; changes take effect on systemctl restart detectord")),
            ]))
        }
        source.resume()
        return source
    }

    static let apiIdleSeconds: Int64 = 30
    /// Open API connections at once: a few pages (each holds an event stream and fetches on up
    /// to six more) and `ctl`, with room to spare.
    static let apiMaximumConnections = 64

    /// The workflow's database; when it cannot be written (a file system gone read-only, a file
    /// the service user may not write), a copy in memory and why: a device that refused to start
    /// would protect nobody, so it runs, says so in the log, the status and the page, and
    /// forgets what happens now when it stops.
    static func openStore(_ path: String) throws -> (WorkflowStore, String?) {
        do {
            return (try WorkflowStore(path: path), nil)
        } catch {
            let copy = try WorkflowStore.inMemoryCopy(of: path)
            return (copy, memoryCopyProblem(error))
        }
    }

    static func memoryCopyProblem(_ error: any Error) -> String {
        "\(error); running from a copy in memory: alerts still go out, but what happens now is forgotten at the next stop. Make the database writable and restart the daemon"
    }

    /// The profile, sensitivity and pipeline the detector starts with: the page's `choice` when
    /// there is one, else the file's (`otherwise`). A saved choice that no longer runs here
    /// (another sensor, rate or model since) gives way to the file's, said as an error: a device
    /// that will not start protects nobody.
    static func startingDetector(
        _ choice: DetectorChoice?, otherwise file: (profile: DetectionProfile, sensitivity: String),
        make: (DetectionProfile) throws -> DetectionPipeline, hub: EventHub, at now: Int64
    ) throws -> (DetectionProfile, String, DetectionPipeline) {
        if let choice, let chosen = choice.detectionProfile {
            do {
                return (chosen, choice.sensitivity, try make(chosen))
            } catch {
                let reason = (error as? FallDetectError)?.message ?? "\(error)"
                hub.publish(DaemonEvent("error", at: now, severity: .error, [("message", .string(
                    "the \(choice.profile) profile chosen on the page cannot run on this sensor (\(reason)); running \(file.profile.name) from the configuration"))]))
            }
        }
        return (file.profile, file.sensitivity, try make(file.profile))
    }

    /// Stands in the payload's device_id: the machine's id where systemd keeps one.
    static func deviceID() -> String {
        if let id = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !id.isEmpty {
            return "detectord-" + id.prefix(12)
        }
        return "detectord"
    }
}

extension DaemonLogHandler {
    func with(level: Logger.Level) -> DaemonLogHandler {
        var copy = self
        copy.logLevel = level
        return copy
    }
}

extension Int {
    /// The smallest power of two at least this large.
    var nextPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}

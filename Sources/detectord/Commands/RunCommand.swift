import ArgumentParser
import DeviceLink
import FallDetect
import Foundation
import Logging

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the live daemon: sensor, detectors, emergency workflow, alerts and the local API.",
        discussion: """
            Reads the configuration FILE (see config/detectord.example.toml; `detectord config check FILE` \
            reports every problem with its line), then runs until SIGTERM or SIGINT: the sensor source \
            (an I2C IMU, a simulated chip read by the same drivers, or a recording replayed in real \
            time), the profile's detectors, the workflow and \
            its SQLite database, the outbox dispatcher and its channels, GNSS from gpsd or the recording, the Bluetooth \
            keychain paired with `detectord pair` (or a simulated one), \
            and the HTTP API and page at [api] listen (127.0.0.1:8180 by default; any other address \
            asks for the login token; `detectord ctl`). A restart resumes an incident where it was. \
            Under systemd (Type=notify) it reports readiness and pings the watchdog while the detector \
            runs. Log lines go to standard error, one per event; alerts sent through the console \
            channel are printed on standard output.
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String = "/etc/detectord/detectord.toml"

    @Option(help: ArgumentHelp("Listen here instead of [api] listen (HOST:PORT; port 0 picks a free one).", valueName: "host:port"))
    var listen: String?

    @Option(help: ArgumentHelp("Use this database instead of [storage] database.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Seconds between status lines in the log; 0 for none.", valueName: "seconds"))
    var statusEvery: Double = 60

    @Option(help: ArgumentHelp("Also record the live samples, GNSS fixes and gaps to this .detrec file.", valueName: "path"))
    var record: String?

    @Flag(help: "Exit once a replay that does not loop has ended and the workflow has nothing left to do (demos).")
    var exitWhenIdle = false

    func validate() throws {
        guard statusEvery >= 0, statusEvery.isFinite else { throw ValidationError("--status-every must be 0 or more") }
        if let listen, APISettings.split(listen, ports: 0...65_535) == nil { throw ValidationError("--listen takes HOST:PORT, got \"\(listen)\"") }
    }

    func run() async throws {
        // The database and recordings hold a person's name, contacts, positions and movements:
        // whatever this process creates is its user's alone (0600 files, 0700 folders).
        PrivateFiles.restrict()
        let settings: DaemonConfiguration
        do {
            settings = try DaemonConfiguration.load(path: config)
        } catch {
            for issue in error.issues { Terminal.standardError.write("\(issue)\n") }
            Terminal.standardError.write("detectord run: \(config): \(error.issues.count) problem\(error.issues.count == 1 ? "" : "s"); not starting\n")
            throw ExitCode(65)
        }
        var level = Logger.Level(rawValue: settings.log.level.rawValue) ?? .info
        if let env = ProcessInfo.processInfo.environment["DETECTORD_LOG_LEVEL"], let override = Logger.Level(rawValue: env) { level = override }
        let logger = Logger(label: "detectord", factory: { DaemonLogHandler(label: $0).with(level: level) })
        do {
            let plan = try makePlan(settings)
            try await Daemon(plan: plan, logger: logger).run()
        } catch let error as FallDetectError {
            Terminal.standardError.write("detectord run: \(error)\n")
            throw ExitCode(70)
        }
    }

    func makePlan(_ settings: DaemonConfiguration) throws -> DaemonPlan {
        var api = settings.api
        if let listen, let (host, port) = APISettings.split(listen, ports: 0...65_535) {
            api.host = host
            api.port = port
        }
        let recorded = RecordedGNSSSource()
        let gnss: GNSSChoice = switch settings.gnss {
        case .gpsd(let host, let port): .gpsd(host: host, port: port)
        case .recording: .recording(recorded)
        case .none: .none
        }
        let relay = SensorNoticeRelay()
        let made = try SensorSourceFactory.make(settings.sensor, relay: relay, keepsTrying: true, fixes: { fix in if case .recording = gnss { recorded.deliver(fix) } })
        let source = made.source
        let finite = made.finite
        var channels: [String: any AlertChannel] = [:]
        let console = settings.channels.console
        channels["console"] = ConsoleChannel(name: "console", sink: { line in if console { Terminal.standardOutput.write(line + "\n") } })
        if let webhook = settings.channels.webhook {
            channels["webhook"] = try WebhookChannel(name: "webhook", url: webhook.url, secret: webhook.secret.bytes, timeout: webhook.timeoutSeconds)
        }
        if let sms = settings.channels.sms {
            channels["sms"] = GSMModemChannel(name: "sms", devicePath: sms.device, baudRate: sms.baud)
        }
        return DaemonPlan(
            source: source, sourceIsFinite: finite, profile: settings.detector.profile.with(sensitivity: settings.detector.sensitivity),
            sensitivity: settings.detector.sensitivity.rawValue,
            fallModelPath: settings.detector.modelPath, notWornMessageAfter: settings.detector.notWornMessageMinutes.map { $0 * 60 },
            stallSeconds: settings.sensor.stallSeconds, sensorFaultMessageAfter: settings.sensor.faultMessageMinutes.map { $0 * 60 },
            // A replay is in the body frame already, and a fixed mapping is applied by the chip's
            // source; only `auto` leaves a frame for the pipeline to estimate.
            axes: settings.sensor.source.name != "replay" && settings.sensor.axes == .auto ? .auto : .fixed(.identity), gnss: gnss,
            workflowSettings: settings.workflow.settings, demo: settings.workflow.demo, person: settings.person?.person,
            contacts: settings.contacts?.map(\.contact), pinHash: settings.pin.hash, duressHash: settings.pin.duressHash, channels: channels, keychainSettings: settings.keychain,
            databasePath: db ?? settings.storage.database, positionRetention: settings.storage.positionRetentionHours * 3600,
            apiHost: api.host, apiPort: api.port,
            tls: api.certificate.flatMap { certificate in api.key.map { DaemonPlan.TLSFiles(certificate: certificate, key: $0) } },
            detectorFromFile: settings.detector.fromFile,
            contactChannels: Self.contactChannels(settings.channels.configured.map(\.rawValue)), exitWhenIdle: exitWhenIdle,
            statusEvery: statusEvery, sensorNotices: relay, recordPath: record, gyroscopeRange: made.gyroscopeRange)
    }

    /// The channels a contact added on the page may use, the default first: SMS, then the webhook,
    /// then the console (a device with nothing else still logs its alerts).
    static func contactChannels(_ configured: [String]) -> [String] {
        let order = ["sms", "webhook", "console"]
        let known = order.filter(configured.contains)
        return known.isEmpty ? ["console"] : known
    }
}

import Foundation

/// A temporary folder with a configuration file for one daemon test: a replayed recording as the
/// sensor, shortened (demo) countdowns, and contacts on the console or a webhook.
struct DaemonTestSetup {
    let directory: URL
    let secret = "0123456789abcdef0123456789abcdef"
    var configPath: String { directory.appendingPathComponent("detectord.toml").path }
    var databasePath: String { directory.appendingPathComponent("detectord.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("detectord-run-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data((secret + "\n").utf8).write(to: directory.appendingPathComponent("webhook.secret"))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Writes a CSV recording at rest, 100 Hz, for `seconds` with no samples during `gap`, and
    /// the configuration replaying it; returns its path.
    @discardableResult
    func write(restingCSV seconds: Double, gap: ClosedRange<Double>, named name: String) throws -> String {
        try write(restingCSV: seconds, gaps: [gap], named: name)
    }

    /// The same with several gaps.
    @discardableResult
    func write(restingCSV seconds: Double, gaps: [ClosedRange<Double>], named name: String) throws -> String {
        var text = "time,ax,ay,az,gx,gy,gz\n"
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            if gaps.contains(where: { $0.contains(t) }) { continue }
            text += "\(t),0,0,1,0,0,0\n"
        }
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try write(replay: path)
        return path
    }

    /// A daemon on the demo walk, looped (nothing to detect, a 30 s countdown), and its API's base
    /// URL, for as long as `body` runs.
    static func withWalkingDaemon(_ body: (DaemonProcess, String) throws -> Void) throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: demo("walking.detrec"), loop: true, countdown: 30)
        let daemon = try setup.start()
        defer { daemon.kill9() }
        try body(daemon, try daemon.apiBase())
    }

    static func demo(_ name: String) -> String {
        DetectordProcess.packageRoot.appendingPathComponent("Datasets/demo/\(name)").path
    }

    /// Writes the configuration; `webhook` makes every contact a webhook contact of that URL. Without
    /// `person`, `contacts` and `profile` the file leaves them to the page's set-up.
    func write(
        replay: String, speed: Double = 1, loop: Bool = false, countdown: Int = 3, trackingMinutes: Double = 0, trackingInterval: Double? = nil,
        person: Bool = true, contacts: [String]? = ["+351913333333"], webhook: URL? = nil, profile: String? = "walking", stallSeconds: Double = 1,
        pinHash: String? = nil, duressHash: String? = nil, gnss: String = "source = \"none\"", extra: String = "", sensor: String? = nil
    ) throws {
        let replaySensor = """
            [sensor]
            source = "replay"
            stall_seconds = \(stallSeconds)

            [sensor.replay]
            path = "\(replay)"
            speed = \(speed)
            loop = \(loop)
            """
        var text = person ? """
            [person]
            name = "Ana Pereira"
            phone = "+351912345678"
            country = "PT"

            """ : ""
        for (index, phone) in (contacts ?? []).enumerated() {
            text += """

                [[contacts]]
                name = "Contact \(index + 1)"
                phone = "\(phone)"
                channel = "\(webhook == nil ? "console" : "webhook")"

                """
        }
        if let profile { text += "\n[detector]\nprofile = \"\(profile)\"\n" }
        text += """

            \(sensor ?? replaySensor)

            [gnss]
            \(gnss)

            [workflow]
            countdown_seconds = \(countdown)
            sos_countdown_seconds = \(countdown)
            tracking_minutes = \(trackingMinutes)\(trackingInterval.map { "\ntracking_interval_seconds = \($0)" } ?? "")
            demo = true

            [channels.console]
            enabled = true

            [storage]
            database = "\(databasePath)"

            [api]
            listen = "127.0.0.1:8180"

            """
        if let webhook {
            text += """

                [channels.webhook]
                url = "\(webhook.absoluteString)"
                secret_file = "\(directory.appendingPathComponent("webhook.secret").path)"
                timeout_seconds = 5

                """
        }
        if let pinHash {
            text += "\n[pin]\nhash = \"\(pinHash)\"\n" + (duressHash.map { "duress_hash = \"\($0)\"\n" } ?? "")
        }
        try Data((text + extra).utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// `run` on this setup's file, on a free port, with no periodic status lines.
    func start(_ more: [String] = [], environment: [String: String] = [:], launcher: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(
            arguments: ["--config", configPath, "--listen", "127.0.0.1:0", "--status-every", "0"] + more, environment: environment, launcher: launcher)
    }
}

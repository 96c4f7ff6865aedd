import ArgumentParser
import DeviceLink
import FallDetect
import Foundation

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show what the hardware reports: gpsd fixes, an I2C IMU, a Bluetooth adapter.",
        discussion: """
            With no part selected, probes all three. --gps watches gpsd for --seconds and prints \
            every fix with its quality (good, weak or none); SERVER defaults to 127.0.0.1:2947. \
            --i2c scans the bus (BUS: 1 or /dev/i2c-1, default --i2c-bus) for a known IMU by its \
            identity register and prints the [sensor.i2c] lines that read it; with --stream it then \
            runs the chip's driver and prints live samples in SI units and the rate achieved. \
            --simulate CHIP does the same on a simulated chip, with no hardware. --bluetooth looks \
            for an adapter. Exits 0 when every probed part answered, 1 otherwise.
            """)

    @Flag(help: "Watch gpsd and print its fixes.")
    var gps = false

    @Flag(help: "Scan the I2C bus for a known IMU.")
    var i2c = false

    @Flag(help: "Look for a Bluetooth adapter.")
    var bluetooth = false

    @Argument(help: ArgumentHelp("gpsd to contact (host:port), or with --i2c the bus (1 or /dev/i2c-1).", valueName: "target"))
    var server = "127.0.0.1:2947"

    @Option(name: .customLong("i2c-bus"), help: ArgumentHelp("I2C bus device to scan.", valueName: "path"))
    var i2cBus = "/dev/i2c-1"

    @Flag(help: "With --i2c: run the found chip's driver and print live samples and the achieved rate for --seconds.")
    var stream = false

    @Option(help: ArgumentHelp("With --i2c: probe a simulated chip instead of the bus (mpu6050, lsm6dso, ...).", valueName: "chip"))
    var simulate: String?

    @Option(help: "With --stream: the output data rate to ask of the chip, Hz.")
    var rate: Double = 200

    @Option(help: "How long to watch gpsd, in seconds.")
    var seconds: Double = 5

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be positive") }
        guard SensorInfo.plausibleSampleRates.contains(rate) else { throw ValidationError("--rate must lie in 10...10000 Hz") }
        if let simulate {
            guard let chip = I2CChip(rawValue: simulate), chip != .auto else {
                throw ValidationError("--simulate takes one of \(I2CChip.allCases.dropFirst().map(\.rawValue).joined(separator: ", "))")
            }
        }
    }

    func run() async throws {
        let all = !gps && !i2c && !bluetooth
        var allFound = true
        if gps || all && simulate == nil { allFound = await probeGPS() && allFound }
        if i2c || all || simulate != nil { allFound = I2CProbe(bus: busPath, simulate: simulate.flatMap(I2CChip.init(rawValue:)), stream: stream, seconds: seconds, rate: rate).run() && allFound }
        if bluetooth || all && simulate == nil { allFound = probeBluetooth() && allFound }
        if !allFound { throw ExitCode(1) }
    }

    private func probeGPS() async -> Bool {
        let out = Terminal.standardOutput
        let (host, port) = Self.split(server)
        let client = GPSDClient(configuration: .init(host: host, port: port))
        out.write("gps:       watching gpsd at \(host):\(port) for \(ProgressLine.fixed(seconds, 0)) s (libgps API \(GPSDClient.apiVersion.major).\(GPSDClient.apiVersion.minor))\n")
        client.start()
        let reader = Task {
            for await fix in client.fixes {
                out.write("gps:       \(Self.describe(fix)), quality \(client.health.quality(at: fix.timestampNanoseconds).rawValue)\n")
            }
        }
        var lastState = ""
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        while ContinuousClock.now < deadline {
            let state = client.state.description
            if state != lastState, state != "connected" {
                out.write("gps:       \(state)\n")
            }
            lastState = state
            try? await Task.sleep(for: .milliseconds(100))
        }
        client.stop()
        reader.cancel()
        let health = client.health
        let now = MonotonicTime.nowNanoseconds()
        var summary = "gps:       \(client.reportCount) reports, quality \(health.quality(at: now).rawValue)"
        if let position = health.lastPosition, let lat = position.latitude, let lon = position.longitude {
            summary += ", last position \(ProgressLine.fixed(lat, 6)), \(ProgressLine.fixed(lon, 6))"
        } else {
            summary += ", no trusted position"
        }
        out.write(summary + "\n")
        return client.connectionCount > 0
    }

    static func describe(_ fix: GNSSFix) -> String {
        var parts: [String] = []
        switch fix.mode {
        case .none: parts.append("no fix")
        case .twoD: parts.append("2D fix")
        case .threeD: parts.append("3D fix")
        }
        if fix.status == .simulated { parts.append("SIMULATED") }
        if let lat = fix.latitude, let lon = fix.longitude {
            parts.append("\(ProgressLine.fixed(lat, 6)), \(ProgressLine.fixed(lon, 6))")
        }
        if let alt = fix.altitude { parts.append("alt \(ProgressLine.fixed(alt, 1)) m") }
        if let speed = fix.speed { parts.append("\(ProgressLine.fixed(speed, 1)) m/s") }
        if let track = fix.track { parts.append("track \(ProgressLine.fixed(track, 0))°") }
        if let eph = fix.horizontalAccuracy { parts.append("±\(ProgressLine.fixed(eph, 1)) m") }
        if let sats = fix.satellitesUsed { parts.append("\(sats) satellites") }
        return parts.joined(separator: " ")
    }

    /// The bus: the positional target when it names one, else --i2c-bus.
    var busPath: String {
        if server.hasPrefix("/dev/") { return server }
        if let number = Int(server), number >= 0 { return "/dev/i2c-\(number)" }
        return i2cBus
    }

    private func probeBluetooth() -> Bool {
        let out = Terminal.standardOutput
        switch HCIAdapter.firstAvailable() {
        case .success(let id):
            out.write("bluetooth: adapter hci\(id)\n")
            return true
        case .failure(let error):
            out.write("bluetooth: no adapter: \(error)\n")
            return false
        }
    }

    /// `host:port`, `host` or `[v6]:port`.
    static func split(_ text: String) -> (String, String) {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            return (host, rest.hasPrefix(":") ? String(rest.dropFirst()) : "2947")
        }
        let parts = text.split(separator: ":", maxSplits: 1)
        return (String(parts.first ?? "127.0.0.1"), parts.count > 1 ? String(parts[1]) : "2947")
    }
}

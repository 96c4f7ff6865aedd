import ArgumentParser
import DeviceLink

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Report what hardware this machine offers: gpsd, an I2C IMU, a Bluetooth adapter.",
        discussion: """
            Checks that gpsd accepts a connection, scans the I2C bus for a known IMU by its identity \
            register, and looks for a Bluetooth adapter. Exits 0 when every probed part answered, \
            1 otherwise. Reading fixes from gpsd is not implemented yet.
            """)

    @Option(name: .customLong("gps"), help: ArgumentHelp("gpsd to contact.", valueName: "host:port"))
    var gps = "127.0.0.1:2947"

    @Option(name: .customLong("i2c"), help: ArgumentHelp("I2C bus device to scan.", valueName: "path"))
    var i2c = "/dev/i2c-1"

    @Flag(name: .customLong("no-bluetooth"), help: "Skip the Bluetooth adapter check.")
    var skipBluetooth = false

    func run() throws {
        var allFound = true
        let out = Terminal.standardOutput

        let (host, port) = Self.split(gps)
        do {
            _ = try GPSDConnection(host: host, port: port)
            out.write("gps:       gpsd answers at \(host):\(port) (libgps API \(GPSDConnection.apiVersion.major).\(GPSDConnection.apiVersion.minor))\n")
        } catch {
            allFound = false
            out.write("gps:       \(error)\n")
        }

        do {
            let bus = try LinuxI2CBus(path: i2c)
            let found = try IMUIdentity.scan(bus)
            if found.isEmpty {
                allFound = false
                out.write("i2c:       \(i2c): no known IMU answered\n")
            }
            for chip in found { out.write("i2c:       \(i2c): \(chip)\n") }
        } catch {
            allFound = false
            out.write("i2c:       \(error)\n")
        }

        if !skipBluetooth {
            switch HCIAdapter.firstAvailable() {
            case .success(let id): out.write("bluetooth: adapter hci\(id)\n")
            case .failure(let error):
                allFound = false
                out.write("bluetooth: no adapter: \(error)\n")
            }
        }
        if !allFound { throw ExitCode(1) }
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

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd fed by gpsfake (from gpsd-clients) on a private loopback port, replaying one of the
/// receiver captures in ../shared/gpslogs.
public final class GPSFake {
    public let port: Int
    public let log: String
    private let process: Process

    /// The captures live in ../shared beside the checkout; under CI a missing folder is a failure.
    public static func capture(_ name: String) -> String? {
        // Tests/TestSupport/GPSFake.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/gpslogs/\(name)").path
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("../shared/gpslogs/\(name) not found: gpsd tests need the shared captures")
        } else {
            print("SKIPPED: ../shared/gpslogs/\(name) not found")
        }
        return nil
    }

    /// One NMEA sentence with its checksum and line end, for logs a test writes itself.
    public static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 }) + "\r\n"
    }

    /// Writes a receiver standing still at 38°45'N 9°09'W for `seconds` one-second epochs, each an
    /// RMC, a GGA ending in `fix` (quality, satellites, HDOP, altitude fields) and a GSA `status`.
    public static func writeStationaryLog(to path: String, seconds: Int, fix: String, status: String) throws {
        var text = ""
        for second in 0..<seconds {
            let time = String(format: "12%02d%02d.00", second / 60, second % 60)
            text += sentence("GPRMC,\(time),A,3845.000,N,00909.000,W,0.0,0.0,261126,,,A")
            text += sentence("GPGGA,\(time),3845.000,N,00909.000,W,\(fix)")
            text += sentence("GPGSA,\(status)")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A port nothing listens on right now, from the high range, distinct per call.
    public static func freePort() -> Int {
        for _ in 0..<100 {
            let port = Int.random(in: 30000...60000)
            let bound = withLoopbackSocket(port: port) { fd, address, length in bind(fd, address, length) }
            if bound == 0 { return port }
        }
        return 39_999
    }

    /// Starts gpsd and feeds `log` once, `cycle` seconds between sentences; gpsfake waits for the
    /// first client before feeding, so nothing is missed.
    public init(log: String, port: Int, cycle: Double = 0.05, singleShot: Bool = true) throws {
        self.port = port
        self.log = log
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        var arguments = ["-q", "-P", String(port), "-c", String(cycle)]
        if singleShot { arguments.append("-1") }
        process.arguments = arguments + [log]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin:" + (environment["PATH"] ?? "")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the private gpsd accepts connections.
    public func waitUntilListening(timeout: Double = 15) async -> Bool {
        await eventually(timeout: timeout) { Self.accepts(port: self.port) }
    }

    /// Freezes the feed as soon as gpsd listens and thaws it once `ready` holds (a client watching).
    /// gpsd opens the receiver only when a client watches and drops what came before, so a log that
    /// fits in the pty's buffer could otherwise be spent whole before a client on a loaded machine
    /// looks. Only the lines fed before the freeze can be lost.
    public func holdFeed(until ready: @escaping () -> Bool, timeout: Double = 30) async -> Bool {
        guard await waitUntilListening(timeout: timeout) else { return false }
        pauseFeeding(true)
        defer { pauseFeeding(false) }
        return await eventually(timeout: timeout, ready)
    }

    /// Kills gpsd with SIGKILL, as a crash would, and gpsfake with it.
    public func kill() {
        for pid in Self.gpsdPIDs(port: port) { Glibc.kill(pid, SIGKILL) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Freezes or thaws the feeder: gpsd stays up but hears nothing from the "receiver".
    public func pauseFeeding(_ paused: Bool) {
        Glibc.kill(process.processIdentifier, paused ? SIGSTOP : SIGCONT)
    }

    deinit {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGCONT)
            kill()
        }
    }

    public static func accepts(port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in connect(fd, address, length) } == 0
    }

    /// A fresh TCP socket and 127.0.0.1:`port`, handed to `body` (bind or connect), then closed.
    private static func withLoopbackSocket(port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return withLoopbackAddress(port: port) { body(fd, $0, $1) }
    }

    /// 127.0.0.1:`port` as a `sockaddr`, for `bind` or `connect`.
    public static func withLoopbackAddress(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// gpsd processes serving this port (gpsfake starts them with `-S PORT`).
    public static func gpsdPIDs(port: Int) -> [pid_t] {
        let proc = "/proc"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: proc) else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "\(proc)/\(entry)/cmdline")
            else { return nil }
            let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let first = args.first, first.hasSuffix("gpsd"),
                let s = args.firstIndex(of: "-S"), s + 1 < args.count, args[s + 1] == String(port)
            else { return nil }
            return pid
        }
    }
}

/// Polls `condition` every 50 ms until it holds or `timeout` seconds pass.
public func eventually(timeout: Double, _ condition: @escaping () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}

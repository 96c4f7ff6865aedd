import FallDetect
import Foundation
import Testing
@testable import detectord
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon tells systemd through libsystemd's sd_notify, read from a notify socket of the
/// test's own, as systemd would: readiness once the API listens, and watchdog pings only while the
/// detector consumes samples.
@Suite(.serialized) struct WatchdogServiceTests {
    /// A datagram socket standing in for systemd's NOTIFY_SOCKET; collects what arrives, with times.
    final class NotifySocket: @unchecked Sendable {
        let path: String
        private let fd: Int32
        private(set) var received: [(time: Double, text: String)] = []

        init(directory: URL) throws {
            path = directory.appendingPathComponent("notify.sock").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        deinit { close(fd) }

        /// Reads what arrives for `seconds`.
        func collect(for seconds: Double) {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 50) > 0 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { received.append((Date().timeIntervalSince1970, String(decoding: buffer[..<n], as: UTF8.self))) }
            }
        }
    }

    /// The daemon as systemd starts it: told where to notify, with a 0.5 s watchdog (pings every 0.25 s).
    static func startUnderSystemd(_ setup: DaemonTestSetup) throws -> (DaemonProcess, NotifySocket) {
        let notify = try NotifySocket(directory: setup.directory)
        let daemon = try DaemonProcess(
            arguments: ["--config", setup.configPath, "--listen", "127.0.0.1:0", "--status-every", "0"],
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "500000"])
        return (daemon, notify)
    }

    @Test func readyOnceListeningAndPingsOnlyWhileSamplesFlow() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        // 2 s of samples, 4 s of silence, 2 s of samples.
        try setup.write(restingCSV: 8, gap: 2.0...6.0, named: "gap.csv")
        let (daemon, notify) = try Self.startUnderSystemd(setup)
        defer { daemon.kill9() }
        notify.collect(for: 8.5)
        // The replay starts with the daemon: its `start` line is the recording's second 0.
        let start = try #require(DaemonProcess.time(of: try daemon.waitForEvent("start")))
        let ready = notify.received.first { $0.text.contains("READY=1") }
        #expect(ready?.text.contains("STATUS=detecting with the walking profile") == true, "\(notify.received.map(\.text))")
        let pings = notify.received.filter { $0.text == "WATCHDOG=1" }.map { $0.time - start }
        #expect(pings.contains { $0 < 2 }, "pings while samples flow: \(pings)")
        #expect(pings.contains { $0 > 6.3 }, "pings again once samples are back: \(pings)")
        // Silent from about 2 s; two seconds later the pings must stop until samples return.
        #expect(!pings.contains { $0 > 4.7 && $0 < 5.9 }, "no ping while the sensor is silent: \(pings)")
    }

    /// The pings' rule at given moments: a detector passing over a fault the source looks past
    /// keeps the daemon alive only while the source's attempts go on; a search stuck in a read
    /// (its stamp ageing) lets systemd restart the daemon, which opens the bus anew.
    @Test func aLostChipKeepsTheDaemonAliveOnlyWhileItsSearchGoesOn() {
        let now: Int64 = 100_000_000_000
        var live = LiveStatistics()
        live.health = .streaming
        live.lastPassNanoseconds = now - 100_000_000
        live.lastConsumedNanoseconds = now - 30_000_000_000
        var sensor = SensorCondition(nominalRateHz: 200)
        #expect(!WatchdogService.alive(live, sensor: sensor, now: now), "silent and no fault")
        sensor.fault = "MPU-6050 lost: no answer"
        sensor.searchedAtNanoseconds = now - 4_000_000_000
        #expect(WatchdogService.alive(live, sensor: sensor, now: now), "looked for 4 s ago")
        sensor.searchedAtNanoseconds = now - 25_000_000_000
        #expect(!WatchdogService.alive(live, sensor: sensor, now: now), "the search stuck for 25 s")
        sensor.searchedAtNanoseconds = now - 4_000_000_000
        live.lastPassNanoseconds = now - 3_000_000_000
        #expect(!WatchdogService.alive(live, sensor: sensor, now: now), "the detector stuck")
        live.lastPassNanoseconds = now - 100_000_000
        live.health = .failed("gone")
        #expect(!WatchdogService.alive(live, sensor: sensor, now: now), "failed for good")
        live.health = .streaming
        live.lastConsumedNanoseconds = now - 500_000_000
        #expect(WatchdogService.alive(live, sensor: nil, now: now), "samples consumed")
    }

    /// A chip unplugged for longer than the watchdog's time: the source says so and looks for it,
    /// and the pings go on (a restart every 12 s would drop the keychain, the API and the alarm,
    /// and find the chip no sooner). A silent replay, which says nothing, still stops them (above).
    @Test func pingsGoOnWhileTheSourceLooksForALostChip() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: "unused", sensor: """
            [sensor]
            source = "simulated"
            rate_hz = 200

            [sensor.simulated]
            chip = "mpu6050"
            fault = "unplug"
            fault_at_seconds = 1.5
            fault_for_seconds = 30
            """)
        let (daemon, notify) = try Self.startUnderSystemd(setup)
        defer { daemon.kill9() }
        notify.collect(for: 7)
        let lost = try daemon.waitForEvent("sensor", timeout: 5) { $0.contains("lost") }
        let lostAt = try #require(DaemonProcess.time(of: lost))
        let pings = notify.received.filter { $0.text == "WATCHDOG=1" }.map { $0.time - lostAt }
        // Lost at 1.5 s: without the search, the pings would stop 2 s later for good.
        #expect(pings.contains { $0 > 3 && $0 < 4.5 } && pings.contains { $0 > 4.5 }, "pings while the chip is looked for: \(pings)")
    }

    /// A bus that is not there (I2C left disabled; this machine has none): the daemon says how to
    /// enable it and looks again, and the pings go on, so the keychain and the page stay up to
    /// say so. Before, the sensor failed for good and systemd restarted the daemon every 12 s.
    @Test func aMissingBusIsAFaultTheDaemonOutlives() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let bus = (90...999).first { !FileManager.default.fileExists(atPath: "/dev/i2c-\($0)") } ?? 999
        try setup.write(replay: "unused", sensor: "[sensor]\nsource = \"i2c\"\n\n[sensor.i2c]\nbus = \(bus)\n")
        let (daemon, notify) = try Self.startUnderSystemd(setup)
        defer { daemon.kill9() }
        let start = try #require(DaemonProcess.time(of: try daemon.waitForEvent("start")))
        notify.collect(for: 5)
        let stalled = try daemon.waitForEvent("sensor_fault", timeout: 5)
        #expect(stalled.contains("raspi-config"), "the fault names the cure: \(stalled)")
        let pings = notify.received.filter { $0.text == "WATCHDOG=1" }.map { $0.time - start }
        #expect(pings.contains { $0 > 4 }, "pings while the bus is looked for: \(pings)")
        let (_, status, _) = try DaemonProcess.request(try daemon.apiBase() + "/api/status")
        let sensor = try #require(status["sensor"] as? [String: Any])
        #expect((sensor["fault_reason"] as? String)?.contains("/dev/i2c-\(bus)") == true, "\(sensor)")
    }
}

import FallDetect
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

/// Runs against a real gpsd fed by gpsfake on loopback; each test has its own port.
@Suite(.serialized) struct GPSDClientTests {
    /// Collects every fix the client hands on.
    final class Collector: Sendable {
        final class Store: Sendable {
            let fixes = Mutex<[GNSSFix]>([])
        }

        let store = Store()
        let task: Task<Void, Never>

        init(_ client: GPSDClient) {
            let store = self.store
            task = Task { for await fix in client.fixes { store.fixes.withLock { $0.append(fix) } } }
        }

        var all: [GNSSFix] { store.fixes.withLock { $0 } }
    }

    /// A started client of `fake` that calls silence after `silence` s, reconnects after
    /// `reconnect` s of it, and retries first after `retry` s.
    private func client(of fake: ScriptedGPSD, silence: Double, reconnect: Double, retry: Double) -> GPSDClient {
        var configuration = GPSDClient.Configuration(host: "127.0.0.1", port: String(fake.port))
        configuration.silenceTimeout = silence
        configuration.reconnectAfterSilence = reconnect
        configuration.initialRetryDelay = retry
        let client = GPSDClient(configuration: configuration)
        client.start()
        return client
    }

    private func client(port: Int, silenceTimeout: Double = 5) -> GPSDClient {
        var configuration = GPSDClient.Configuration(host: "127.0.0.1", port: String(port))
        configuration.initialRetryDelay = 0.1
        configuration.maximumRetryDelay = 0.2
        configuration.silenceTimeout = silenceTimeout
        return GPSDClient(configuration: configuration)
    }

    /// Every (lat, lon) the capture's RMC, GGA and GLL sentences carry, in degrees.
    private func capturedPositions(_ log: String) throws -> [(Double, Double)] {
        func degrees(_ value: Substring, _ hemisphere: Substring, degreeDigits: Int) -> Double? {
            guard value.count > degreeDigits, let d = Double(value.prefix(degreeDigits)),
                let m = Double(value.dropFirst(degreeDigits))
            else { return nil }
            let v = d + m / 60
            return hemisphere == "S" || hemisphere == "W" ? -v : v
        }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            let start: Int
            if line.hasPrefix("$GPRMC") { start = 3 } else if line.hasPrefix("$GPGGA") { start = 2 } else if line.hasPrefix("$GPGLL") { start = 1 } else { return nil }
            guard f.count > start + 3, let lat = degrees(f[start], f[start + 1], degreeDigits: 2),
                let lon = degrees(f[start + 2], f[start + 3], degreeDigits: 3)
            else { return nil }
            return (lat, lon)
        }
    }

    /// Waits until fixes stop arriving for `quiet` seconds after at least `minimum` came.
    private func waitForReplayToEnd(_ collector: Collector, minimum: Int, quiet: Double = 2, timeout: Double = 40) async -> Bool {
        var lastCount = -1
        var lastChange = Date()
        return await eventually(timeout: timeout) {
            let count = collector.all.count
            if count != lastCount {
                lastCount = count
                lastChange = Date()
            }
            return count >= minimum && Date().timeIntervalSince(lastChange) > quiet
        }
    }

    private func isDisconnected(_ state: GPSDClientState) -> Bool {
        if case .disconnected = state { return true }
        return false
    }

    @Test func readsTheCarCaptureAsGpsdReportsIt() async throws {
        guard let log = GPSFake.capture("bt451.log") else { return }
        let port = GPSFake.freePort()
        // The client is already retrying when gpsd comes up, and the feed waits for it to watch
        // (gpsd opens the receiver only once a client watches, and drops what came before).
        let client = client(port: port)
        let collector = Collector(client)
        client.start()
        defer { client.stop() }
        let fake = try GPSFake(log: log, port: port, cycle: 0.05)
        #expect(await fake.holdFeed { client.connectionCount > 0 })
        #expect(await waitForReplayToEnd(collector, minimum: 20))
        let fixes = collector.all
        #expect(fixes.count >= 20, "\(fixes.count) fixes")
        #expect(fixes.first?.mode == GNSSFix.Mode.none, "the capture starts without a fix")
        #expect(fixes.contains { $0.mode == .threeD && $0.isTrusted })
        #expect(fixes.contains { $0.horizontalAccuracy != nil && $0.verticalAccuracy != nil && $0.altitude != nil })
        #expect(fixes.contains { ($0.satellitesUsed ?? 0) >= 4 }, "SKY reports give the satellites used")
        #expect(fixes.contains { $0.utcNanoseconds != nil })

        // Up to 32.3 knots (16.6 m/s) in the car.
        let topSpeed = fixes.compactMap(\.speed).max() ?? 0
        #expect(topSpeed > 16.0 && topSpeed < 16.7, "top speed \(topSpeed) m/s")

        let captured = try capturedPositions(log)
        for fix in fixes where fix.hasPosition {
            let matched = captured.contains { abs($0.0 - fix.latitude!) < 1e-6 && abs($0.1 - fix.longitude!) < 1e-6 }
            #expect(matched, "position \(fix.latitude!), \(fix.longitude!) is not in the capture")
        }

        // gpsd goes away: the last known position outlives the connection; the quality does not.
        fake.kill()
        #expect(await eventually(timeout: 10) { self.isDisconnected(client.state) })
        let health = client.health
        let last = try #require(health.lastPosition)
        #expect(abs(last.latitude! - 55.78) < 0.02 && abs(last.longitude! - 23.57) < 0.02)
        #expect(health.quality(at: MonotonicTime.nowNanoseconds() + 60_000_000_000) == .none)
        collector.task.cancel()
    }

    @Test func demoModeCaptureNeverYieldsATrustedFix() async throws {
        guard let log = GPSFake.capture("garmin-geko201.log") else { return }
        let port = GPSFake.freePort()
        let client = client(port: port)
        let collector = Collector(client)
        client.start()
        defer { client.stop() }
        let fake = try GPSFake(log: log, port: port, cycle: 0.02)
        defer { fake.kill() }
        #expect(await fake.holdFeed { client.connectionCount > 0 })
        #expect(await waitForReplayToEnd(collector, minimum: 10))
        let fixes = collector.all
        #expect(fixes.count >= 10)
        #expect(fixes.contains { $0.status == .simulated }, "gpsd marks demo-mode output as simulated")
        #expect(fixes.allSatisfy { !$0.isTrusted })
        #expect(client.health.lastPosition == nil)
        collector.task.cancel()
    }

    /// An NMEA receiver without GST: gpsd's TPV has "eph" (from HDOP 9.9: 188.1 m) but no
    /// "epx"/"epy", so libgps raises no HERR_SET; the accuracy must still be read, or a poor 3D
    /// fix would look good.
    @Test func aThreeDFixWithOnlyEphKeepsItsAccuracy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gps-eph-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/weak-3d.log"
        try GPSFake.writeStationaryLog(to: log, seconds: 20, fix: "1,04,9.9,100.0,M,50.0,M,,", status: "A,3,01,02,03,04,,,,,,,,,12.0,9.9,7.0")
        let port = GPSFake.freePort()
        let client = client(port: port)
        let collector = Collector(client)
        client.start()
        defer { client.stop() }
        let fake = try GPSFake(log: log, port: port, cycle: 0.05)
        defer { fake.kill() }
        #expect(await fake.holdFeed { client.connectionCount > 0 })
        #expect(await waitForReplayToEnd(collector, minimum: 5))
        let threeD = collector.all.filter { $0.mode == .threeD && $0.hasPosition }
        #expect(!threeD.isEmpty)
        #expect(threeD.allSatisfy { abs(($0.horizontalAccuracy ?? 0) - 188.1) < 0.5 }, "\(threeD.map(\.horizontalAccuracy))")
        collector.task.cancel()
    }

    @Test func nothingListeningIsReportedAndRetriedWithBackoff() async throws {
        let port = GPSFake.freePort()
        var configuration = GPSDClient.Configuration(host: "127.0.0.1", port: String(port))
        configuration.initialRetryDelay = 0.1
        configuration.maximumRetryDelay = 0.4
        let client = GPSDClient(configuration: configuration)
        client.start()
        var delays: Set<Double> = []
        _ = await eventually(timeout: 5) {
            if case .disconnected(let reason, let retry) = client.state, reason.contains("can't connect") { delays.insert(retry) }
            return delays.contains(0.4)
        }
        #expect(delays.contains(0.1) || delays.contains(0.2), "delays seen: \(delays)")
        #expect(delays.contains(0.4), "the delay grows to its cap: \(delays)")
        let before = Date()
        client.stop()
        #expect(Date().timeIntervalSince(before) < 5)
        #expect(client.state == .stopped)
        #expect(client.connectionCount == 0)
    }

    /// A gpsd host that does not answer: `connect` (like a name lookup) blocks in libgps and
    /// cannot be interrupted. A listener whose accept queue is full drops the SYNs, so the
    /// connection hangs until the listener closes. `stop()` returns after its bound, not when
    /// the connection gives up; the thread then ends by itself.
    @Test func aStopWhileConnectingDoesNotWaitForTheConnection() async throws {
        let (listener, port) = try Self.loopbackListener(backlog: 0)
        // One connection fills the queue of a backlog of 0.
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(GPSFake.withLoopbackAddress(port: port) { connect(filler, $0, $1) } == 0)
        var configuration = GPSDClient.Configuration(host: "127.0.0.1", port: String(port))
        configuration.stopWait = 0.3
        let client = GPSDClient(configuration: configuration)
        client.start()
        try await Task.sleep(for: .milliseconds(300))
        #expect(client.state == .connecting, "connect blocks: \(client.state)")
        let before = Date()
        client.stop()
        let waited = Date().timeIntervalSince(before)
        #expect(waited < 5, "stop waited \(waited) s for a connection that would block for minutes")
        #expect(client.state == .connecting, "the thread is still in connect: \(client.state)")
        // The listener gone, the next SYN meets a reset: connect fails, and the thread sees the stop.
        close(listener)
        close(filler)
        #expect(await eventually(timeout: 20) { client.state == .stopped }, "state: \(client.state)")
        #expect(client.connectionCount == 0)
    }

    @Test func connectsOnceGpsdStartsLate() async throws {
        guard let log = GPSFake.capture("haicom-305N.log") else { return }
        let port = GPSFake.freePort()
        let client = client(port: port)
        client.start()
        defer { client.stop() }
        #expect(await eventually(timeout: 5) { self.isDisconnected(client.state) })

        let fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await eventually(timeout: 20) { client.connectionCount == 1 && client.reportCount > 0 })
    }

    @Test func survivesGpsdKilledMidStreamAndRestarted() async throws {
        guard let log = GPSFake.capture("haicom-305N.log") else { return }
        let port = GPSFake.freePort()
        var fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        #expect(await fake.waitUntilListening())
        let client = client(port: port)
        client.start()
        defer { client.stop() }
        #expect(await eventually(timeout: 20) { client.reportCount >= 5 })

        fake.kill()
        #expect(await eventually(timeout: 10) { self.isDisconnected(client.state) })
        let reportsBefore = client.reportCount

        fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await eventually(timeout: 20) { client.connectionCount == 2 && client.reportCount > reportsBefore + 3 })
        #expect(client.state == .connected)
    }

    @Test func aSilentReceiverIsReportedAndRecovers() async throws {
        guard let log = GPSFake.capture("haicom-305N.log") else { return }
        let port = GPSFake.freePort()
        let fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await fake.waitUntilListening())
        let client = client(port: port, silenceTimeout: 1)
        client.start()
        defer { client.stop() }
        #expect(await eventually(timeout: 20) { client.reportCount >= 3 })

        fake.pauseFeeding(true)
        #expect(await eventually(timeout: 10) {
            if case .receiverSilent = client.state { return true }
            return false
        })
        fake.pauseFeeding(false)
        #expect(await eventually(timeout: 10) { client.state == .connected })
        #expect(client.connectionCount == 1, "silence alone does not reconnect")
    }

    /// A socket listening on a free loopback port, and the port.
    static func loopbackListener(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, backlog) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A "gpsd" on loopback that answers one connection with `bytes`, then hangs up or, with
    /// `hangUp` false, stays silent until the test ends.
    final class ScriptedGPSD: Sendable {
        let port: Int
        private let listener: Int32
        private let accepted = Mutex<Int32>(-1)

        /// `everyConnection`: each connection gets `bytes` (kept open, the last one closed at the end).
        init(sending bytes: String, hangUp: Bool, everyConnection: Bool = false) throws {
            (listener, port) = try GPSDClientTests.loopbackListener(backlog: 1)
            Thread.detachNewThread { [self] in
                repeat {
                    let fd = accept(listener, nil, nil)
                    guard fd >= 0 else { return }
                    var scratch = [UInt8](repeating: 0, count: 256)
                    _ = recv(fd, &scratch, scratch.count, 0)  // the client's ?WATCH
                    _ = Array(bytes.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if hangUp {
                        close(fd)
                    } else {
                        self.accepted.withLock {
                            if $0 >= 0 { close($0) }
                            $0 = fd
                        }
                    }
                } while everyConnection
            }
        }

        func stop() {
            close(listener)
            accepted.withLock { if $0 >= 0 { close($0) } }
        }
    }

    /// A gpsd whose receiver is unplugged answers each connection with its VERSION line and
    /// nothing more: that is silence, not a report, so the retries back off (0.5, 1, 2 s).
    /// Before, each VERSION line reset the backoff and made the state "connected" again.
    @Test func gpsdsOwnAnswersAreNoReportsAndTheRetriesBackOff() async throws {
        let fake = try ScriptedGPSD(sending: #"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"# + "\n", hangUp: false, everyConnection: true)
        defer { fake.stop() }
        let client = client(of: fake, silence: 0.2, reconnect: 0.4, retry: 0.5)
        defer { client.stop() }
        var retries: [Double] = []
        #expect(await eventually(timeout: 20) {
            if case .disconnected(_, let retryIn) = client.state, retries.last != retryIn { retries.append(retryIn) }
            return retries.count >= 3
        }, "\(retries)")
        // Each seen once, growing (a slow poll may miss one, never see one shrink or repeat).
        #expect(retries.count >= 3 && zip(retries, retries.dropFirst()).allSatisfy { $0 < $1 }, "\(retries)")
        #expect(client.reportCount == 0)
    }

    /// gpsd gone in the middle of a line: an end, and a reconnection.
    @Test func aGpsdGoneMidLineIsAnEnd() async throws {
        let fake = try ScriptedGPSD(sending: #"{"class":"VERSION","release":"3.22"}"# + "\n" + #"{"class":"TPV","mode":3,"la"#, hangUp: true)
        defer { fake.stop() }
        var configuration = GPSDClient.Configuration(host: "127.0.0.1", port: String(fake.port))
        configuration.initialRetryDelay = 30  // the first end stays the state the test reads
        let client = GPSDClient(configuration: configuration)
        client.start()
        defer { client.stop() }
        var reason = ""
        #expect(await eventually(timeout: 5) {
            if case .disconnected(let why, _) = client.state { reason = why }
            return !reason.isEmpty
        }, "state: \(client.state)")
        #expect(reason.contains("closed the connection"), "\(reason)")
    }

    /// A gpsd that stopped mid-line but keeps the connection: libgps says input is waiting while
    /// it holds the part, so this was a busy loop that never counted the silence. Now: silence,
    /// then a new connection.
    @Test func aGpsdStuckMidLineIsSilenceAndReconnects() async throws {
        let fake = try ScriptedGPSD(sending: #"{"class":"TPV","mode":3,"la"#, hangUp: false)
        defer { fake.stop() }
        let client = client(of: fake, silence: 0.5, reconnect: 1.5, retry: 30)
        defer { client.stop() }
        var silent = false
        var reason = ""
        #expect(await eventually(timeout: 10) {
            if case .receiverSilent = client.state { silent = true }
            if case .disconnected(let why, _) = client.state { reason = why }
            return !reason.isEmpty
        }, "state: \(client.state)")
        #expect(silent, "said silent before giving up")
        #expect(reason.contains("no report"), "\(reason)")
    }
}

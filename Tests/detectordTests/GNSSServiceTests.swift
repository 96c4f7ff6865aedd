import Foundation
import TestSupport
import Testing

/// The daemon's GNSS side against a real gpsd fed by gpsfake: positions reach the status, and gpsd
/// killed and started again is reported and rejoined without touching the daemon.
@Suite(.serialized) struct GNSSServiceTests {
    @Test func gpsdKilledAndRestartedIsRejoined() async throws {
        guard let log = GPSFake.capture("haicom-305N.log") else { return }
        let port = GPSFake.freePort()
        var fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        #expect(await fake.waitUntilListening())
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(
            replay: DaemonTestSetup.demo("walking.detrec"), loop: true, gnss: "source = \"gpsd\"\nhost = \"127.0.0.1\"\nport = \(port)")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        try daemon.waitForEvent("gnss", timeout: 30) { $0.contains("state=connected") }
        #expect(await eventually(timeout: 20) {
            let status = (try? DaemonProcess.request(base + "/api/status"))?.body["gnss"] as? [String: Any]
            return status?["position"] != nil
        }, "a fix from the receiver reaches the status")

        fake.kill()
        try daemon.waitForEvent("gnss", timeout: 20) { $0.contains("disconnected") }
        fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await eventually(timeout: 40) {
            daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "gnss" && $0.contains("state=connected") }.count == 2
        }, "\(daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "gnss" })")
        #expect(daemon.isRunning)
    }
}

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
        // The capture is from 2007 (gpsd places its two-digit dates near its own build's): the
        // system clock is days ahead of the receiver's UTC.
        let told = try daemon.waitForEvent("clock", timeout: 10) { $0.contains("ahead of the receiver's UTC") }
        let offset = ((try DaemonProcess.request(base + "/api/status")).body["gnss"] as? [String: Any])?["clock_offset_s"] as? Double
        #expect(offset.map { $0 > 86_400 } == true, "\(told)")

        fake.kill()
        try daemon.waitForEvent("gnss", timeout: 20) { $0.contains("disconnected") }
        fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await eventually(timeout: 40) {
            daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "gnss" && $0.contains("state=connected") }.count == 2
        }, "\(daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "gnss" })")
        #expect(daemon.isRunning)
        #expect(daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "clock" }.count == 1, "told once, not at each fix nor at each reconnection")
    }

    /// gpsd killed while a fall's countdown runs: the alert still goes, once, with the last
    /// trusted position; the person sees the receiver gone; once gpsd is back the daemon rejoins
    /// it by itself and tracking goes on.
    @Test func gpsdKilledDuringAnIncidentLeavesTheAlertItsLastPosition() async throws {
        guard let log = GPSFake.capture("haicom-305N.log") else { return }
        let port = GPSFake.freePort()
        var fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        defer { fake.kill() }
        #expect(await fake.waitUntilListening())
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(
            replay: DaemonTestSetup.demo("forward-fall.detrec"), countdown: 10, trackingMinutes: 2, trackingInterval: 5, webhook: sink.url,
            gnss: "source = \"gpsd\"\nhost = \"127.0.0.1\"\nport = \(port)")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        try daemon.waitForEvent("gnss", timeout: 30) { $0.contains("state=connected") }
        #expect(await eventually(timeout: 20) {
            ((try? DaemonProcess.request(base + "/api/status"))?.body["gnss"] as? [String: Any])?["position"] != nil
        }, "a fix before the fall")

        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=ALERT_COUNTDOWN") }
        fake.kill()
        try daemon.waitForEvent("gnss", timeout: 20) { $0.contains("disconnected") }
        let gnss = try DaemonProcess.request(base + "/api/status").body["gnss"] as? [String: Any]
        #expect((gnss?["state"] as? String)?.contains("disconnected") == true, "the person sees the receiver gone: \(gnss ?? [:])")
        try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }
        let alerts = RunCommandTests.messages(sink, kind: "alert")
        #expect(alerts.count == 1, "\(sink.requests.count) requests")
        let position = alerts.first?.1["position"] as? [String: Any]
        #expect(position?["latitude"] is Double && position?["longitude"] is Double, "the last trusted position: \(alerts.first?.1 ?? [:])")

        let updatesBefore = RunCommandTests.messages(sink, kind: "location_update").count
        fake = try GPSFake(log: log, port: port, cycle: 0.05, singleShot: false)
        #expect(await eventually(timeout: 40) {
            daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "gnss" && $0.contains("state=connected") }.count == 2
        }, "gpsd rejoined")
        let rejoined = try DaemonProcess.request(base + "/api/status").body["gnss"] as? [String: Any]
        #expect(rejoined?["state"] as? String == "connected" && rejoined?["position"] != nil, "\(rejoined ?? [:])")
        #expect(await eventually(timeout: 30) { RunCommandTests.messages(sink, kind: "location_update").count > updatesBefore },
                "tracking goes on")
        #expect(RunCommandTests.messages(sink, kind: "alert").count == 1, "the alert went once")
    }
}

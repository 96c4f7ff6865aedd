import DeviceLink
import FallDetect
import Foundation
import TestSupport
import Testing


/// The keychain end to end in the real daemon: a simulated iTag (a fake peripheral speaking ATT
/// over a socket pair to the daemon's own ATT client, profile and press handling), pressed
/// through the API as the page's tests will, and a real HTTP receiver on loopback for the webhook.
@Suite(.serialized) struct KeychainRunTests {
    @Test func aKeychainPressDeliversOneSOSAlertToTheWebhook() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 1, webhook: sink.url, extra: """

            [keychain]
            kind = "simulated"
            link_lost_warning_minutes = 0.1

            [keychain.simulated]
            battery = 15
            """)
        let daemon = try setup.start()
        defer { daemon.kill9() }
        try daemon.waitForEvent("keychain", timeout: 30) { $0.contains("state=connected") }
        let base = try daemon.apiBase()
        #expect(try DaemonProcess.request(base + "/api/keychain/press", method: "POST", json: ["pattern": "single"]).status == 200)
        try daemon.waitForEvent("transition", timeout: 10) { $0.contains("to=ALERT_COUNTDOWN") && $0.contains("SOS from the keychain") }
        try daemon.waitForEvent("keychain_beep", timeout: 5) { $0.contains("on=true") }
        try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }

        let alerts = RunCommandTests.messages(sink, kind: "alert")
        #expect(alerts.count == 1, "one SOS alert to the one contact: \(sink.requests.count) requests")
        #expect(alerts.first?.1["trigger"] as? String == "manual")
        let status = try DaemonProcess.request(base + "/api/status").body
        let keychain = status["keychain"] as? [String: Any]
        #expect(keychain?["state"] as? String == "connected")
        #expect(keychain?["battery_percent"] as? Int == 15)
        #expect(keychain?["battery_warning"] as? String == "Charge your keychain soon")
        let latency = keychain?["press_to_decision_ms"] as? [String: Any]
        #expect((latency?["count"] as? Int) == 1, "the press was decided: \(String(describing: keychain))")
        #expect(RunCommandTests.messages(sink, kind: "low_battery").count == 1, "the low battery told once")
        // A second press after sending does not disarm or send again.
        #expect(try DaemonProcess.request(base + "/api/keychain/press", method: "POST", json: ["pattern": "single"]).status == 200)
        try daemon.waitForEvent("keychain_press", timeout: 10) { $0.contains("only the PIN") }
        #expect(RunCommandTests.messages(sink, kind: "alert").count == 1)
        #expect(try DaemonProcess.request(base + "/api/keychain/beep", method: "POST", json: ["seconds": 0.5]).status == 200)
    }

    @Test func aPressFromARealKeychainIsRefusedByTheAPI() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true)
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        let press = try DaemonProcess.request(base + "/api/keychain/press", method: "POST", json: ["pattern": "single"])
        #expect(press.status == 409, "no simulated keychain to press: \(press.text)")
        let status = try DaemonProcess.request(base + "/api/status").body
        #expect((status["keychain"] as? [String: Any])?["state"] as? String == "not configured")
        #expect(try DaemonProcess.request(base + "/api/keychain/beep", method: "POST", json: [:]).status == 409)
    }

    @Test func aKeychainPairedWhileTheDaemonRunsIsUsedAtOnce() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, extra: "\n[keychain]\nkind = \"simulated\"\n")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        try daemon.waitForEvent("keychain", timeout: 30) { $0.contains("state=connected") }
        let base = try daemon.apiBase()
        let near = (try DaemonProcess.request(base + "/api/status").body["keychain"] as? [String: Any])?["source"] as? String
        #expect(near?.contains("FF:FF:10:20:30:40") == true, "unpaired, the simulation takes its near tag: \(near ?? "")")
        let pair = try DetectordProcess.run(["pair", "--config", setup.configPath, "--simulate", "--choose", "2", "--scan-seconds", "0.5", "--api", base])
        #expect(pair.status == 0, "\(pair.standardOutput)\(pair.standardError)")
        #expect(pair.standardOutput.contains("The running daemon now uses it."))
        var source: String?
        for _ in 0..<100 {
            source = (try DaemonProcess.request(base + "/api/status").body["keychain"] as? [String: Any])?["source"] as? String
            if source?.contains("FF:FF:C0:FF:EE:07") == true { break }
            usleep(100_000)
        }
        #expect(source?.contains("FF:FF:C0:FF:EE:07") == true, "the daemon reconnected to the paired keychain: \(source ?? "")")
        try daemon.waitForEvent("keychain_battery", timeout: 10) { $0.contains("percent=41") }
    }
}

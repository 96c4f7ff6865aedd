import DeviceLink
import FallDetect
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The live daemon as a device runs it: a real `detectord run` process replaying a recording as
/// its IMU, a real SQLite database, a real HTTP receiver on loopback for the webhook.
@Suite(.serialized) struct RunCommandTests {
    /// The webhook requests that carry a given message kind, with their parsed bodies.
    static func messages(_ sink: LoopbackHTTPServer, kind: String) -> [(LoopbackHTTPServer.Request, [String: Any])] {
        sink.requests.compactMap { request in
            guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
                body["message_kind"] as? String == kind
            else { return nil }
            return (request, body)
        }
    }

    @Test func aReplayedFallDeliversOneSignedWebhookAlert() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 4, webhook: sink.url)
        let daemon = try setup.start(["--exit-when-idle"])
        try daemon.waitForEvent("detection", timeout: 60) { $0.contains("kind=fall") }
        try daemon.waitForEvent("transition") { $0.contains("to=EMERGENCY_SENT") }
        #expect(daemon.waitForExit(timeout: 60), "the daemon ends by itself once the replay is over and nothing is left to do")
        #expect(daemon.terminationStatus == 0, "\(daemon.logLines.joined(separator: "\n"))")

        let alerts = Self.messages(sink, kind: "alert")
        #expect(alerts.count == 1, "one alert, to the one webhook contact: \(sink.requests.count) requests")
        if let (request, body) = alerts.first {
            #expect(body["recipient"] as? String == "+351913333333")
            #expect(body["trigger"] as? String == "automatic_fall")
            let timestamp = request.headers["x-detectord-timestamp"] ?? ""
            let expected = "sha256=" + WebhookChannel.signature(body: request.body, timestamp: timestamp, secret: Array(setup.secret.utf8))
            #expect(request.headers["x-detectord-signature"] == expected, "signed with the configured secret")
            #expect(request.headers["idempotency-key"]?.isEmpty == false)
        }
        // The database says the same as the receiver.
        let incidents = try WorkflowStore(path: setup.databasePath).incidents()
        #expect(incidents.count == 1 && incidents.first?.sentAt != nil)
    }

    /// The driver path end to end: a simulated MPU-6050 on a simulated bus measures a SisFall fall
    /// (a real person's recorded fall, F01 of SA01), the real MPU-6050 driver drains its FIFO, the
    /// source stamps and pushes the samples, and the daemon raises exactly one alert.
    @Test func aSimulatedMPU6050MeasuringASisFallFallRaisesExactlyOneAlert() throws {
        guard let root = try SharedDatasets.unpacked("sisfall-dev.tar.xz", "sisfall") else { return }
        let trial = root + "/SisFall_dataset/SA01/F01_SA01_R01.txt"
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: trial, webhook: sink.url, sensor: """
            [sensor]
            source = "simulated"
            rate_hz = 200

            [sensor.simulated]
            chip = "mpu6050"
            motion = "\(trial)"
            speed = 1
            """)
        let daemon = try setup.start([])
        defer { daemon.terminate() }
        let found = try daemon.waitForEvent("sensor", timeout: 30) { $0.contains("MPU-6050 at 0x68") }
        #expect(found.contains("FIFO"), "\(found)")
        try daemon.waitForEvent("detection", timeout: 60) { $0.contains("kind=fall") }
        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=EMERGENCY_SENT") }
        // The fall's 15 s are over, and the chip goes on measuring the wearer lying still.
        Thread.sleep(forTimeInterval: 3)
        daemon.terminate()
        #expect(daemon.waitForExit(timeout: 30))
        let detections = daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "detection" }
        #expect(detections.count == 1, "\(detections)")
        #expect(Self.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
        // At true speed the MPU-6050's 1 KiB FIFO holds 0.4 s, more than a busy test machine
        // holds up the source; a drain held up after the count is no gap (I2CSensorSourceTests).
        let gaps = daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "sensor_gap" }
        #expect(gaps.isEmpty, "no gap in a clean simulated stream: \(gaps)")
        let stop = daemon.logLines.first { DaemonProcess.eventType(of: $0) == "stop" } ?? ""
        #expect(DaemonProcess.value("dropped", in: stop) == "0", "\(stop)")
    }

    /// The chip unplugged for 1.2 s while the daemon runs: a sensor fault within a second, shown
    /// in the status with its reason, no alert to anyone, and streaming again by itself with the
    /// time away recorded as a gap.
    @Test func anUnpluggedSimulatedChipIsAFaultThenStreamsAgainByItself() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: "unused", webhook: sink.url, sensor: """
            [sensor]
            source = "simulated"
            rate_hz = 200

            [sensor.simulated]
            chip = "lsm6dso"
            fault = "unplug"
            fault_at_seconds = 3
            fault_for_seconds = 1.2
            """)
        let daemon = try setup.start([])
        defer { daemon.terminate() }
        let api = try daemon.apiBase()
        let lost = try daemon.waitForEvent("sensor", timeout: 30) { $0.contains("lost") }
        let lostAt = try #require(DaemonProcess.time(of: lost))
        let (_, status, _) = try DaemonProcess.request(api + "/api/status")
        let sensor = try #require(status["sensor"] as? [String: Any])
        #expect(sensor["fault"] as? Bool == true, "\(sensor)")
        #expect((sensor["fault_reason"] as? String)?.contains("LSM6DSO") == true, "\(sensor)")
        let stalled = try daemon.waitForEvent("sensor_fault", timeout: 10)
        Thread.sleep(forTimeInterval: 0.1)
        let (_, during, _) = try DaemonProcess.request(api + "/api/status")
        let workflow = try #require(during["workflow"] as? [String: Any])
        #expect(workflow["sensor_fault_since"] is String, "the workflow keeps the fault too: \(workflow)")
        #expect((DaemonProcess.time(of: stalled) ?? 99) - lostAt <= 1.2, "the stall follows within stall_seconds")
        let gap = try daemon.waitForEvent("sensor_gap", timeout: 15)
        let lostSamples = Int(DaemonProcess.value("lost_samples", in: gap) ?? "") ?? 0
        // Lost at 3 s; tried again after 0.1, 0.3, 0.7 and 1.5 s; back at 4.2 s: found 1.5 s after
        // the loss, at 208 Hz (the LSM6DSO's rate for 200).
        #expect((280...420).contains(lostSamples), "\(gap)")
        try daemon.waitForEvent("sensor_recovered", timeout: 10)
        Thread.sleep(forTimeInterval: 1)
        let (_, after, _) = try DaemonProcess.request(api + "/api/status")
        let again = try #require(after["sensor"] as? [String: Any])
        #expect(again["fault"] as? Bool == false, "\(again)")
        #expect(again["recoveries"] as? Int == 1 && again["gaps"] as? Int == 1, "\(again)")
        #expect(again["chip"] as? String == "LSM6DSO at 0x6a")
        let (_, _, metrics) = try DaemonProcess.request(api + "/metrics", contentType: nil)
        #expect(metrics.contains("detectord_sensor_recoveries_total 1"), "\(metrics)")
        #expect(sink.requests.isEmpty, "a sensor fault is not an emergency: nobody is told")
    }

    /// The chip lost while a fall's countdown runs (unplugged, or the bus hung): the fall is not
    /// withdrawn by the silence nor raised again by the chip's return; the person sees the fault;
    /// the alert goes once when the countdown ends.
    @Test(arguments: ["unplug", "hung-bus"]) func aSensorLostDuringTheCountdownLeavesTheFallStanding(fault: String) throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        // The demo's fall is at 18.2 s of motion; the chip goes at 21 s, for 4 s.
        try setup.write(replay: "unused", countdown: 20, webhook: sink.url, sensor: """
            [sensor]
            source = "simulated"
            rate_hz = 200

            [sensor.simulated]
            chip = "lsm6dso"
            motion = "\(DaemonTestSetup.demo("forward-fall.detrec"))"
            fault = "\(fault)"
            fault_at_seconds = 21
            fault_for_seconds = 4
            """)
        let daemon = try setup.start([])
        defer { daemon.kill9() }
        let api = try daemon.apiBase()
        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=ALERT_COUNTDOWN") }
        try daemon.waitForEvent("sensor_fault", timeout: 30)
        let during = try DaemonProcess.request(api + "/api/status").body
        #expect((during["sensor"] as? [String: Any])?["fault"] as? Bool == true, "the person sees the fault: \(during)")
        #expect((during["workflow"] as? [String: Any])?["state"] as? String == "ALERT_COUNTDOWN", "\(during)")
        try daemon.waitForEvent("sensor_recovered", timeout: 30)
        try daemon.waitForEvent("transition", timeout: 40) { $0.contains("to=EMERGENCY_SENT") }
        Thread.sleep(forTimeInterval: 3)
        let detections = daemon.logLines.filter { DaemonProcess.eventType(of: $0) == "detection" }
        #expect(detections.count == 1, "the chip's return is not a second fall: \(detections)")
        #expect(!daemon.logLines.contains { $0.contains("to=NO_EMERGENCY") }, "the silence does not withdraw the fall")
        #expect(Self.messages(sink, kind: "alert").count == 1, "\(sink.requests.count) requests")
    }

    @Test func aReplayedWalkDeliversNothing() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), speed: 8, webhook: sink.url)
        let daemon = try setup.start(["--exit-when-idle"])
        try daemon.waitForEvent("sensor_ended", timeout: 60)
        #expect(daemon.waitForExit(timeout: 30))
        #expect(daemon.terminationStatus == 0)
        #expect(!daemon.logLines.contains { DaemonProcess.eventType(of: $0) == "detection" }, "\(daemon.logLines.joined(separator: "\n"))")
        #expect(sink.requests.isEmpty)
        let stop = daemon.logLines.first { DaemonProcess.eventType(of: $0) == "stop" } ?? ""
        #expect(DaemonProcess.value("samples", in: stop) == "6000", "every sample of the minute of walking was judged: \(stop)")
        #expect(DaemonProcess.value("dropped", in: stop) == "0")
    }

    /// `kill -HUP` after editing the file (a common habit) must not stop the protection: the
    /// daemon says a restart is needed and goes on answering.
    @Test func aHangUpIsIgnoredAndSaysToRestart() throws {
        try DaemonTestSetup.withWalkingDaemon { daemon, base in
            #expect(kill(daemon.processIdentifier, SIGHUP) == 0)
            let warning = try daemon.waitForEvent("warning", timeout: 10) { $0.contains("SIGHUP") }
            #expect(warning.contains("systemctl restart detectord"), "\(warning)")
            usleep(300_000)
            #expect(daemon.isRunning)
            #expect(try DaemonProcess.request(base + "/api/status").status == 200)
            daemon.terminate()
            #expect(daemon.waitForExit(timeout: 20))
            #expect(daemon.terminationStatus == 0)
        }
    }

    @Test func stoppedDuringTheCountdownItResumesWithTheTimeLeft() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 4, countdown: 60)
        let first = try setup.start()
        let started = try first.waitForEvent("transition", timeout: 60) { $0.contains("to=ALERT_COUNTDOWN") }
        let countdownStart = try #require(DaemonProcess.time(of: started))
        usleep(500_000)
        first.terminate()
        #expect(first.waitForExit(timeout: 20), "SIGTERM stops it gracefully")
        #expect(first.terminationStatus == 0)
        #expect(first.logLines.contains { DaemonProcess.eventType(of: $0) == "stop" && $0.contains("state=ALERT_COUNTDOWN") })
        usleep(1_500_000)

        // Back up with a sensor that shows nothing new: the countdown must go on where it was.
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 60)
        let second = try setup.start()
        defer { second.kill9() }
        let base = try second.apiBase()
        // The status is read somewhere between these two instants (a loaded machine can take
        // seconds to answer): what is left must lie between what each allows.
        let asked = Date().timeIntervalSince1970
        let status = try DaemonProcess.request(base + "/api/status")
        let answered = Date().timeIntervalSince1970
        let workflow = status.body["workflow"] as? [String: Any] ?? [:]
        #expect(workflow["state"] as? String == "ALERT_COUNTDOWN", "\(status.text)")
        let left = try #require(workflow["countdown_s"] as? Double, "\(status.text)")
        let most = 60 - (asked - countdownStart) + 1
        let least = 60 - (answered - countdownStart) - 1
        #expect(left <= most && left >= least, "\(left) s left, \(least)...\(most) s expected")
        second.terminate()
        #expect(second.waitForExit(timeout: 20))
    }

    @Test func killedAtRandomInstantsWhileSendingEachContactGetsTheAlertOnce() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        // A slow receiver, so that kills land while requests are in flight.
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200, delay: 0.4)])
        defer { sink.stop() }
        let contacts = ["+351913333333", "+351914444444", "+351915555555"]
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 4, countdown: 1, contacts: contacts, webhook: sink.url)
        var daemon = try setup.start()
        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=EMERGENCY_SENDING") }
        var kills = 0
        // Restarts replay walking: no second fall, only what the database holds goes out.
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 1, contacts: contacts, webhook: sink.url)
        for _ in 0..<4 {
            usleep(UInt32.random(in: 50_000...500_000))
            daemon.kill9()
            _ = daemon.waitForExit(timeout: 10)
            kills += 1
            daemon = try setup.start()
        }
        defer { daemon.kill9() }
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline, Set(Self.messages(sink, kind: "alert").compactMap { $0.1["recipient"] as? String }).count < contacts.count {
            usleep(100_000)
        }
        let alerts = Self.messages(sink, kind: "alert")
        for phone in contacts {
            let keys = Set(alerts.filter { $0.1["recipient"] as? String == phone }.compactMap { $0.0.headers["idempotency-key"] })
            #expect(keys.count == 1, "\(phone): the alert arrived under exactly one idempotency key, so the receiver shows it once (\(keys))")
        }
        #expect(alerts.count <= contacts.count + kills, "a repeat only for a request cut off by a kill: \(alerts.count) requests, \(kills) kills")
        let incidents = try WorkflowStore(path: setup.databasePath).incidents()
        #expect(incidents.count == 1, "one incident across \(kills) kills")
    }

    @Test func aReceiverThatComesBackGetsTheAlertFirstAndAtOnce() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        // Down (503) while the alert is first sent, then up: the daemon must not wait out a long
        // backoff, and the contact's first message must be the alert.
        let sink = try LoopbackHTTPServer(replies: [.init(status: 503)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("forward-fall.detrec"), speed: 4, countdown: 1, webhook: sink.url)
        let daemon = try setup.start(["--exit-when-idle"])
        defer { daemon.kill9() }
        try daemon.waitForEvent("transition", timeout: 60) { $0.contains("to=EMERGENCY_SENDING") }
        usleep(6_000_000)
        let failures = sink.requests.count
        #expect(failures >= 1, "the receiver was tried while down: \(failures)")
        #expect(failures <= 4, "by probes (a retry the channel asks for, never more than 15 s apart), not a storm: \(failures) requests in 6 s")
        let upAt = Date()
        sink.reply(with: [.init(status: 200)])
        try daemon.waitForEvent("transition", timeout: 30) { $0.contains("to=EMERGENCY_SENT") }
        let waited = Date().timeIntervalSince(upAt)
        #expect(waited < 16, "delivered within one probe interval (15 s) of coming back: \(waited) s")
        #expect(daemon.waitForExit(timeout: 60))
        let kinds = sink.requests.compactMap { (try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any])?["message_kind"] as? String }
        #expect(kinds.first == "alert" && Set(kinds.prefix(failures + 1)) == ["alert"], "only the alert until it got through: \(kinds)")
        #expect(kinds.filter { $0 == "alert" }.count == failures + 1)
    }
}

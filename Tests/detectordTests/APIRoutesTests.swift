import FallDetect
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import detectord

/// The daemon's local API over real HTTP: status, the person's actions with the workflow's PIN
/// rules, the cross-site guard, the event stream and the metrics.
@Suite(.serialized) struct APIRoutesTests {
    /// Wrong PINs in Settings and at the PIN pad are counted per client apart: three wrong
    /// Settings tries (a page left open on the device, whose loopback address every local client
    /// shares) must not leave the wearer's PIN pad refused during an alarm.
    @Test func wrongSettingsPINsDoNotUseUpThePINPadsTries() throws {
        let (setup, daemon, base) = try Self.daemonWithPIN4821()
        defer {
            daemon.kill9()
            setup.remove()
        }
        for _ in 0..<3 {
            let settings = try DaemonProcess.request(base + "/api/setup/details", method: "POST", json: ["pin": "0000"])
            #expect(settings.status == 403 && settings.body["error"] as? String == "wrong PIN", "\(settings.text)")
        }
        #expect(try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:]).status == 200)
        for _ in 0..<2 {
            let wrong = try DaemonProcess.request(base + "/api/disarm", method: "POST", json: ["pin": "0000"])
            #expect(wrong.status == 409, "\(wrong.text)")
        }
        let right = try DaemonProcess.request(base + "/api/disarm", method: "POST", json: ["pin": "4821"])
        #expect(right.status == 200, "the PIN pad's own tries are not used up: \(right.text)")
    }

    /// A daemon replaying the walking demo, with the PIN 4821 and a 30 s countdown, and its API's
    /// base URL. The caller kills it and removes the setup.
    static func daemonWithPIN4821() throws -> (DaemonTestSetup, DaemonProcess, String) {
        let setup = try DaemonTestSetup()
        do {
            try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 30, pinHash: try PINHasher.hash("4821"))
            let daemon = try setup.start()
            do { return (setup, daemon, try daemon.apiBase()) } catch {
                daemon.kill9()
                throw error
            }
        } catch {
            setup.remove()
            throw error
        }
    }

    @Test func theWearersActionsFollowTheWorkflowsRules() throws {
        let (setup, daemon, base) = try Self.daemonWithPIN4821()
        defer {
            daemon.kill9()
            setup.remove()
        }

        let idle = try DaemonProcess.request(base + "/api/status")
        #expect(idle.status == 200)
        #expect((idle.body["workflow"] as? [String: Any])?["state"] as? String == "NO_EMERGENCY", "\(idle.text)")
        #expect(idle.body["person"] as? String == "Ana Pereira")
        #expect((idle.body["sensor"] as? [String: Any])?["fault"] as? Bool == false)

        // A form on another site cannot post JSON without asking first: anything else is refused.
        let forged = try DaemonProcess.request(base + "/api/sos", method: "POST", contentType: "application/x-www-form-urlencoded")
        #expect(forged.status == 415)
        #expect((try DaemonProcess.request(base + "/api/status")).body["workflow"].flatMap { ($0 as? [String: Any])?["state"] as? String } == "NO_EMERGENCY")

        // A page elsewhere posting with a preflight's blessing would still name its origin: the
        // loopback-only API refuses it too.
        let crossSite = try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:], headers: ["Origin": "http://evil.example"])
        #expect(crossSite.status == 403, "\(crossSite.text)")
        #expect((try DaemonProcess.request(base + "/api/status")).body["workflow"].flatMap { ($0 as? [String: Any])?["state"] as? String } == "NO_EMERGENCY")

        let sos = try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:])
        #expect(sos.status == 200, "\(sos.text)")
        let counting = try DaemonProcess.request(base + "/api/status")
        let workflow = counting.body["workflow"] as? [String: Any] ?? [:]
        #expect(workflow["state"] as? String == "ALERT_COUNTDOWN")
        #expect((workflow["countdown_s"] as? Double).map { $0 > 25 && $0 <= 30 } == true, "\(counting.text)")

        let fine = try DaemonProcess.request(base + "/api/fine", method: "POST", json: [:])
        #expect(fine.status == 200, "\(fine.text)")
        #expect(((try DaemonProcess.request(base + "/api/status")).body["workflow"] as? [String: Any])?["state"] as? String == "NO_EMERGENCY")

        // A wrong PIN is refused and counted; the right one is taken.
        _ = try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:])
        let wrong = try DaemonProcess.request(base + "/api/disarm", method: "POST", json: ["pin": "0000"])
        #expect(wrong.status == 409 && (wrong.body["notes"] as? [String])?.contains("wrong PIN") == true, "\(wrong.text)")
        let right = try DaemonProcess.request(base + "/api/disarm", method: "POST", json: ["pin": "4821"])
        #expect(right.status == 200, "\(right.text)")
        #expect(((try DaemonProcess.request(base + "/api/status")).body["workflow"] as? [String: Any])?["state"] as? String == "NO_EMERGENCY")

        let survey = try DaemonProcess.request(base + "/api/survey", method: "POST", json: ["answer": "maybe"])
        #expect(survey.status == 400, "an unknown answer is refused with the choices: \(survey.text)")
        #expect(survey.body["ok"] as? Bool == false && (survey.body["error"] as? String)?.hasPrefix("answer must be one of") == true, "\(survey.text)")

        let metrics = try DaemonProcess.request(base + "/metrics")
        #expect(metrics.status == 200)
        let samples = metrics.text.split(separator: "\n").first { $0.hasPrefix("detectord_samples_total ") }
        #expect(samples.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 > 0 } == true, "\(metrics.text)")
        #expect(metrics.text.contains("detectord_transitions_total{to=\"ALERT_COUNTDOWN\"} 2"))
    }

    /// A wearer protected by the file with no PIN anywhere: Settings are as open as on a fresh
    /// device, and the log says so at the start. With a PIN it does not.
    @Test func aWearerProtectedWithNoPINIsWarnedOf() throws {
        try withQuietDaemonProcess { daemon, _ in
            let line = try daemon.waitForEvent("setup") { $0.contains("no PIN is set") }
            #expect(line.split(separator: " ").dropFirst().first == "warning", "\(line)")
        }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 30, pinHash: try PINHasher.hash("4821"))
        let daemon = try setup.start()
        defer { daemon.kill9() }
        _ = try daemon.apiBase()
        try daemon.waitForEvent("workflow")
        #expect(!daemon.logLines.contains { $0.contains("no PIN is set") }, "\(daemon.logLines)")
    }

    /// The duress PIN from the configuration file: the wearer's page shows the alarm stopped,
    /// while the emergency goes on and the contacts are told.
    @Test func theDuressPINFromTheFileLooksDisarmedAndTellsTheContacts() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let sink = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { sink.stop() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 30, webhook: sink.url,
                        pinHash: try PINHasher.hash("4821"), duressHash: try PINHasher.hash("9173"))
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        _ = try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:])
        let disarm = try DaemonProcess.request(base + "/api/disarm", method: "POST", json: ["pin": "9173"])
        #expect(disarm.status == 200, "answered as the right PIN is: \(disarm.text)")
        #expect(disarm.body["transitions"] as? [[String: String]] == [["from": "ALERT_COUNTDOWN", "to": "NO_EMERGENCY", "reason": "disarmed with the PIN"]],
                "a correct disarm's answer: \(disarm.text)")
        let deadline = Date().addingTimeInterval(20)
        while RunCommandTests.messages(sink, kind: "duress").isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!RunCommandTests.messages(sink, kind: "duress").isEmpty, "\(sink.requests.count) requests")
        #expect(RunCommandTests.messages(sink, kind: "all_clear").isEmpty, "no all clear under duress")
        let stored = try WorkflowStore(path: setup.databasePath).workflow()
        #expect(stored.underDuress && stored.state != .noEmergency, "the emergency goes on: \(stored.state)")

        // Once the contacts have it, the device still shows a correct disarm everywhere it shows anything.
        let status = try DaemonProcess.request(base + "/api/status").body
        let shown = status["workflow"] as? [String: Any]
        #expect(shown?["state"] as? String == "NO_EMERGENCY" && shown?["alarm"] as? Bool == false, "\(shown ?? [:])")
        #expect(shown?["tracking"] as? Bool == false && shown?["tracking_s"] == nil, "\(shown ?? [:])")
        #expect(shown?["trigger"] == nil, "no trigger beside no emergency (after a test alarm it told the two PINs apart): \(shown ?? [:])")
        #expect(status["outbox_waiting"] as? Int == 0)
        let incident = (try DaemonProcess.request(base + "/api/incidents").body["incidents"] as? [[String: Any]])?.first
        #expect(incident?["outcome"] as? String == "disarmed with the PIN" && incident?["sent"] is NSNull, "\(incident ?? [:])")
        #expect((incident?["messages"] as? [Any])?.isEmpty == true && !"\(incident ?? [:])".contains("duress"), "\(incident ?? [:])")
        let metrics = try DaemonProcess.request(base + "/metrics").text
        #expect(!metrics.contains("EMERGENCY_SENDING") && !metrics.contains("outcome=\"delivered\""), "\(metrics)")
        let replayed = try Self.followEvents(base)
        #expect(replayed.contains("disarmed with the PIN"), "the stream replays recent events: \(replayed)")
        let events = replayed.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let types = Set(events.compactMap { $0["type"] as? String })
        #expect(types.isDisjoint(with: ["queued", "message", "tracking", "superseded", "undeliverable"]), "\(types)")
        #expect(!replayed.contains("duress") && !replayed.contains("EMERGENCY_"), "\(replayed)")
        #expect(daemon.logLines.contains { $0.contains("concealed") && $0.contains("duress") }, "the log keeps the truth")
    }

    /// A daemon with nothing happening (a walk replayed in a loop, a 30 s countdown), for `body`
    /// to drive through the API at its base URL.
    private func withQuietDaemon(_ body: (String) throws -> Void) throws {
        try withQuietDaemonProcess { _, base in try body(base) }
    }

    private func withQuietDaemonProcess(_ body: (DaemonProcess, String) throws -> Void) throws {
        try DaemonTestSetup.withWalkingDaemon(body)
    }

    /// The status line of a GET sent by hand with the `Host` given (URLSession would write its
    /// own): what a browser sends after DNS rebinding.
    static func statusLine(port: Int, path: String, host: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(connected)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
    }

    @Test func aLoopbackRequestNamingAnotherHostIsRefused() throws {
        try withQuietDaemon { base in
            let port = try #require(URL(string: base)?.port)
            #expect(try Self.statusLine(port: port, path: "/api/status", host: "evil.example:\(port)").contains(" 403 "))
            #expect(try Self.statusLine(port: port, path: "/api/status", host: "127.0.0.1:\(port)").contains(" 200 "))
            #expect(try Self.statusLine(port: port, path: "/api/status", host: "localhost:\(port)").contains(" 200 "))
        }
    }

    @Test func ctlDrivesTheDaemonFromTheCommandLine() throws {
        try withQuietDaemon { base in
            let sos = try DetectordProcess.run(["ctl", "sos", "--api", base])
            #expect(sos.status == 0, "\(sos.standardOutput)\(sos.standardError)")
            let status = try DetectordProcess.run(["ctl", "status", "--api", base])
            #expect(status.status == 0)
            #expect(status.standardOutput.contains("\"state\" : \"ALERT_COUNTDOWN\""), "\(status.standardOutput)")
            let quit = try DetectordProcess.run(["ctl", "quit", "--api", base])
            #expect(quit.status == 1, "quit applies only after sending: \(quit.standardOutput)")
            let fine = try DetectordProcess.run(["ctl", "fine", "--api", base])
            #expect(fine.status == 0, "\(fine.standardOutput)")
            let gone = try DetectordProcess.run(["ctl", "status", "--api", "http://127.0.0.1:9"])
            #expect(gone.status == 1)
            #expect(gone.standardError.contains("cannot reach the daemon"))
        }
    }

    @Test func theEventStreamCarriesTheWorkflowAsItHappens() throws {
        try withQuietDaemon { base in
            let lines = try Self.followEvents(base) {
                _ = try DaemonProcess.request(base + "/api/sos", method: "POST", json: [:])
            }.split(separator: "\n")
            let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(events.contains { $0["type"] as? String == "start" }, "the recent events come first: \(lines)")
            #expect(events.contains { $0["type"] as? String == "transition" && $0["to"] as? String == "ALERT_COUNTDOWN" }, "\(lines)")
        }
    }

    /// SIGTERM while a page (or `ctl events`) holds the event stream open: the stream ends and
    /// the daemon stops cleanly at once, its last line `stop`. The open stream used to hold the
    /// API's shutdown until systemd's SIGKILL, 20 s without detection.
    @Test func anOpenEventStreamDoesNotHoldTheStop() throws {
        try withQuietDaemonProcess { daemon, base in
            let follower = Process()
            follower.executableURL = DetectordProcess.executable
            follower.arguments = ["ctl", "events", "--api", base]
            follower.standardOutput = Pipe()
            try follower.run()
            defer { follower.terminate() }
            usleep(700_000)
            daemon.terminate()
            #expect(daemon.waitForExit(timeout: 8), "still running 8 s after SIGTERM with a stream open")
            #expect(daemon.logLines.contains { DaemonProcess.eventType(of: $0) == "stop" })
        }
    }

    /// `ctl events` against something that answers but is no event stream (a refused login, a
    /// wrong port or path): it says so and fails, where it printed nothing and exited 0.
    @Test func ctlEventsFailsOnAnAnswerThatIsNoStream() throws {
        try withQuietDaemonProcess { _, base in
            let follower = Process()
            follower.executableURL = DetectordProcess.executable
            follower.arguments = ["ctl", "events", "--api", base + "/no-such-place"]
            let errors = Pipe()
            follower.standardOutput = Pipe()
            follower.standardError = errors
            try follower.run()
            follower.waitUntilExit()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(follower.terminationStatus == 1, "\(said)")
            #expect(said.contains("HTTP 404"), "\(said)")
        }
    }

    /// A phone logged in from elsewhere holds the event stream open; the phone is lost and the
    /// owner replaces the token (`ctl token`): the stream ends at its next event, where it went
    /// on telling the alarm, the presses and the messages for as long as it stayed connected.
    @Test func aRemoteEventStreamEndsWhenItsTokenIsReplaced() throws {
        guard let address = WebPageTests.externalAddress() else {
            Issue.record("this machine has no address other than loopback: a remote stream cannot be tested")
            return
        }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 30)
        let daemon = try setup.start(["--listen", "0.0.0.0:0"])
        defer { daemon.kill9() }
        let token = try #require(DaemonProcess.value("token", in: try daemon.waitForEvent("login_token", timeout: 30)))
        let base = try daemon.apiBase()
        let port = try #require(URL(string: base)?.port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &remote.sin_addr)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let request = "GET /api/events HTTP/1.1\r\nHost: \(address):\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n"
        #expect(request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } > 0)
        var wait = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        let first = recv(fd, &buffer, buffer.count, 0)
        #expect(first > 0 && String(decoding: buffer[0..<max(first, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        _ = try LoginTokens(store: WorkflowStore(path: setup.databasePath)).issue()
        // The stream's verdict on its token is kept 2 s (it is read from the database).
        usleep(2_500_000)
        let sos = try DaemonProcess.request("http://127.0.0.1:\(port)/api/sos", method: "POST", json: [:])
        #expect(sos.status == 202 || sos.status == 200, "\(sos.text)")
        // Whatever the stream had sent before the event, it then closes rather than tell it.
        var told = ""
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            told += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        #expect(!told.contains("ALERT_COUNTDOWN"), "the replaced token's stream told the alarm: \(told)")
    }

    /// A client that opens a connection and sends half a request is cut off once it has been
    /// idle for `Daemon.apiIdleSeconds`, not before: left open, such connections would use up
    /// the daemon's descriptors.
    @Test func aConnectionLeftHalfwayIsClosedWhenIdle() throws {
        try withQuietDaemon { base in
            let port = try #require(URL(string: base)?.port)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            try #require(GPSFake.withLoopbackAddress(port: port) { connect(fd, $0, $1) } == 0)
            let half = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            #expect(half.withCString { send(fd, $0, strlen($0), 0) } > 0)
            var wait = timeval(tv_sec: Int(Daemon.apiIdleSeconds) + 15, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let started = Date()
            var byte: UInt8 = 0
            let got = recv(fd, &byte, 1, 0)
            let waited = Date().timeIntervalSince(started)
            #expect(got == 0, "the daemon closed the connection (recv \(got), errno \(errno))")
            #expect(waited > Double(Daemon.apiIdleSeconds) - 5, "closed after \(waited) s, before it was idle that long")
        }
    }

    /// At most `Daemon.apiMaximumConnections` at once: one more is accepted by the kernel but
    /// waits, unanswered, until another closes.
    @Test func aConnectionBeyondTheCapWaitsForOneToClose() throws {
        try withQuietDaemon { base in
            let port = try #require(URL(string: base)?.port)
            var held: [Int32] = []
            defer { held.forEach { close($0) } }
            for _ in 0..<Daemon.apiMaximumConnections {
                let fd = try Self.connection(port)
                held.append(fd)
                // Answered: the daemon has accepted and counts it (kept alive after).
                try #require(Self.answers(fd, within: 10), "connection \(held.count) of \(Daemon.apiMaximumConnections)")
            }
            let extra = try Self.connection(port)
            defer { close(extra) }
            #expect(!Self.answers(extra, within: 2), "one connection beyond the cap is answered at once")
            close(held.removeLast())
            #expect(Self.answers(extra, within: 10, sendFirst: false), "answered once a connection closed")
        }
    }

    /// A TCP connection to the daemon on loopback.
    static func connection(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        try #require(GPSFake.withLoopbackAddress(port: port) { connect(fd, $0, $1) } == 0)
        return fd
    }

    /// Sends a status request on `fd` (unless it has been sent) and says whether any answer
    /// arrives within `seconds`.
    static func answers(_ fd: Int32, within seconds: Int, sendFirst: Bool = true) -> Bool {
        if sendFirst {
            let request = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            guard request.withCString({ send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return false }
        }
        var wait = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        return recv(fd, &buffer, buffer.count, 0) > 0
    }

    /// What `detectord ctl events` prints (the recent events, then new ones) while `during` runs,
    /// with half a second before and 0.7 s after it.
    static func followEvents(_ base: String, during: () throws -> Void = {}) throws -> String {
        let follower = Process()
        follower.executableURL = DetectordProcess.executable
        follower.arguments = ["ctl", "events", "--api", base]
        let pipe = Pipe()
        follower.standardOutput = pipe
        try follower.run()
        usleep(500_000)
        try during()
        usleep(700_000)
        follower.terminate()
        follower.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}

import FallDetect
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The device's page in a real headless Chromium against a real daemon with a simulated keychain:
/// the dashboard's rows, an SOS from the keychain appearing without a reload, "I'm fine", three
/// wrong PINs and the lockout, then the right PIN. Screenshots land in .cache/page-screenshots.
@Suite(.serialized) struct WebPageTests {
    static let python = DetectordProcess.packageRoot.appendingPathComponent("Bench/.venv-oracle/bin/python").path

    @Test func theServedPageIsSmallAndKeepsToItself() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true)
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        var total = 0
        for path in ["/", "/app.js", "/setup.js", "/style.css"] {
            let answer = try DaemonProcess.request(base + path)
            #expect(answer.status == 200, "\(path)")
            total += answer.text.utf8.count
        }
        #expect(total < 48_000, "the page stays small: \(total) bytes")
        let index = try DaemonProcess.request(base + "/").text
        #expect(!index.contains("http://") && !index.contains("https://"), "nothing loaded from elsewhere")
    }

    /// Chromium, chromedriver and selenium are there, or the test says why it cannot run (and fails under CI).
    static func browserAvailable() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), FileManager.default.isExecutableFile(atPath: Self.python) else {
            let why = "chromedriver or the oracle venv with selenium is missing (make test's bootstrap installs them)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record(Comment(rawValue: why)) } else { print("skipped: \(why)") }
            return false
        }
        return true
    }

    /// Runs a driver script; its stdout, or a recorded failure with its stderr's end.
    static func drive(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [DetectordProcess.packageRoot.appendingPathComponent("Tests/detectordTests/Page/\(script)").path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(script): \(errors.suffix(3000))")
        return output
    }

    static var screenshots: URL {
        DetectordProcess.packageRoot.appendingPathComponent(".cache/page-screenshots")
    }

    /// An address of this machine other than loopback, so a test can be a visitor from elsewhere.
    static func externalAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == UInt16(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127.") { return text }
        }
        return nil
    }

    /// A receiver with a 2D fix and a poor HDOP: gpsd reports it, the page shows GPS "Weak".
    static func weakFixLog(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("weak-fix.log").path
        try GPSFake.writeStationaryLog(to: path, seconds: 20, fix: "1,03,9.9,,M,,M,,", status: "A,2,01,02,03,,,,,,,,,,9.9,9.9,1.0")
        return path
    }

    @Test func settingUpFromAnEmptyDatabaseInChromium() async throws {
        guard Self.browserAvailable() else { return }
        guard let address = Self.externalAddress() else {
            Issue.record("this machine has no address other than loopback: the login from elsewhere cannot be tested")
            return
        }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        let gpsPort = GPSFake.freePort()
        let fake = try GPSFake(log: try Self.weakFixLog(in: setup.directory), port: gpsPort, cycle: 0.1, singleShot: false)
        defer { fake.kill() }
        #expect(await fake.waitUntilListening())
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 2, person: false, contacts: nil, profile: nil,
                        gnss: "source = \"gpsd\"\nhost = \"127.0.0.1\"\nport = \(gpsPort)", extra: "\n[keychain]\nkind = \"simulated\"\n")
        let daemon = try setup.start(["--listen", "0.0.0.0:0"])
        defer { daemon.kill9() }
        let announced = try daemon.waitForEvent("login_token", timeout: 30)
        let token = try #require(DaemonProcess.value("token", in: announced))
        let port = try #require(URL(string: try daemon.apiBase())?.port)
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        let output = try Self.drive("setup_driver.py", ["http://127.0.0.1:\(port)", Self.screenshots.path, "http://\(address):\(port)", token])
        #expect(output.contains("\"ok\": true"), "\(output)")
        for name in ["setup-empty", "setup-scan", "setup-contacts-full", "setup-done", "history", "dashboard-battery-low-gps-weak", "settings-unlocked", "login-done"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: Self.screenshots.appendingPathComponent("\(name).png").path)[.size] as? Int) ?? 0
            #expect(size > 1000, "\(name).png")
        }
    }

    @Test func theDashboardAndTheAlarmInChromium() throws {
        guard Self.browserAvailable() else { return }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 2, trackingMinutes: 0.2,
                        pinHash: try PINHasher.hash("4821"), gnss: "source = \"recording\"", extra: "\n[keychain]\nkind = \"simulated\"\nlink_lost_warning_minutes = 0.1\n")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        try daemon.waitForEvent("keychain", timeout: 30) { $0.contains("state=connected") }
        let base = try daemon.apiBase()
        let shots = Self.screenshots
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let output = try Self.drive("page_driver.py", [base, shots.path, "4821"])
        for name in ["dashboard-phone", "dashboard-desktop", "dashboard-battery-low", "dashboard-keychain-lost", "alarm-countdown", "pin-lockout", "disarmed", "survey"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shots.appendingPathComponent("\(name).png").path)[.size] as? Int) ?? 0
            #expect(size > 1000, "\(name).png")
        }
        let figures = output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let presses = figures?["press_to_page_ms"] as? [String: Any]
        #expect(presses?["count"] as? Int == 20, "\(output)")
        print("page figures: \(output.split(separator: "\n").last ?? "")")
    }
}

import FallDetect
import Foundation
import TestSupport
import Testing

/// The device's page in a real headless Chromium against a real daemon with a simulated keychain:
/// the dashboard's rows, an SOS from the keychain appearing without a reload, "I'm fine", three
/// wrong PINs and the lockout, then the right PIN. Screenshots land in .cache/page-screenshots.
@Suite(.serialized) struct WebPageTests {
    static let python = DetectordProcess.packageRoot.appendingPathComponent("Bench/.venv-oracle/bin/python").path
    static let driver = DetectordProcess.packageRoot.appendingPathComponent("Tests/detectordTests/Page/page_driver.py").path

    @Test func theServedPageIsSmallAndKeepsToItself() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true)
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        var total = 0
        for path in ["/", "/app.js", "/style.css"] {
            let answer = try DaemonProcess.request(base + path)
            #expect(answer.status == 200, "\(path)")
            total += answer.text.utf8.count
        }
        #expect(total < 40_000, "the page stays small: \(total) bytes")
        let index = try DaemonProcess.request(base + "/").text
        #expect(!index.contains("http://") && !index.contains("https://"), "nothing loaded from elsewhere")
    }

    @Test func theDashboardAndTheAlarmInChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), FileManager.default.isExecutableFile(atPath: Self.python) else {
            let why = "chromedriver or the oracle venv with selenium is missing (make test's bootstrap installs them)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record(Comment(rawValue: why)) } else { print("skipped: \(why)") }
            return
        }
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, countdown: 2, trackingMinutes: 0.2,
                        pinHash: try PINHasher.hash("4821"), gnss: "source = \"recording\"", extra: "\n[keychain]\nkind = \"simulated\"\nlink_lost_warning_minutes = 0.1\n")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        try daemon.waitForEvent("keychain", timeout: 30) { $0.contains("state=connected") }
        let base = try daemon.apiBase()
        let shots = DetectordProcess.packageRoot.appendingPathComponent(".cache/page-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.driver, base, shots.path, "4821"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors.suffix(3000))")
        for name in ["dashboard-phone", "dashboard-desktop", "dashboard-battery-low", "dashboard-keychain-lost", "alarm-countdown", "pin-lockout", "disarmed"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shots.appendingPathComponent("\(name).png").path)[.size] as? Int) ?? 0
            #expect(size > 1000, "\(name).png")
        }
        let figures = output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let presses = figures?["press_to_page_ms"] as? [String: Any]
        #expect(presses?["count"] as? Int == 5, "\(output)")
        print("page figures: \(output.split(separator: "\n").last ?? "")")
    }
}

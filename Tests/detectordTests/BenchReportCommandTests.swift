import FallDetect
import Foundation
import Testing

/// `bench --report DIR` end to end: the built binary writes the page, and a real browser
/// (headless Chromium, as the project's rules ask for web pages) renders it.
@Suite struct BenchReportCommandTests {
    /// The unpacked HAPT development recordings; nil (a failure under CI=true, a SKIPPED line
    /// otherwise) when ../shared/datasets is absent.
    func haptRoot() throws -> String? {
        try SharedDatasets.unpacked("hapt-dev.tar.xz", "hapt")
    }

    static func missing(_ what: String) {
        if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("\(what)") } else { print("SKIPPED: \(what)") }
    }

    /// Debian names it chromium; other systems chromium-browser.
    static func chromium() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    /// Runs a program under coreutils' timeout, stdout captured, stderr to a file (a browser's
    /// log can outgrow a pipe while stdout is being read).
    static func run(_ arguments: [String], seconds: Int, errorLog: URL) throws -> (status: Int32, output: String, log: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "\(seconds)"] + arguments
        let out = Pipe()
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: Data())
        let err = try FileHandle(forWritingTo: errorLog)
        defer { try? err.close() }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "")
    }

    @Test func haptReportRendersInChromium() throws {
        guard let root = try haptRoot() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("report")
        let output = try DetectordProcess.run(["bench", "--dataset", "hapt", "--root", root, "--detector", "learned", "--report", report.path])
        #expect(output.status == 0, "\(output.standardError)")
        let page = report.appendingPathComponent("index.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any])
        let datasets = try #require(json["datasets"] as? [[String: Any]])
        #expect(datasets.count == 1)
        #expect(datasets.first?["kind"] as? String == "continuous")
        let detectors = try #require(datasets.first?["detectors"] as? [[String: Any]])
        #expect(detectors.map { $0["name"] as? String } == ["learned"])
        let figures = try #require(detectors.first?["figures"] as? [String: Any])
        #expect(figures["removals"] as? Int == 31)
        #expect(html.contains("<tr data-detector=\"learned\">"))

        guard let chromium = Self.chromium() else {
            Self.missing("chromium not found on PATH (make bootstrap installs it)")
            return
        }
        // No name resolves, and the page's own policy refuses any load: what renders came from
        // the file alone, and a refused load would show in the browser's log.
        let result = try Self.run(
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND",
                "--user-data-dir=\(dir.appendingPathComponent("profile").path)", "--enable-logging=stderr", "--v=0",
                "--dump-dom", page.absoluteString,
            ], seconds: 120, errorLog: dir.appendingPathComponent("chromium.log"))
        #expect(result.status == 0, "chromium exited \(result.status): \(result.log.suffix(2000))")
        let dom = result.output
        for part in [
            "<section class=\"dataset\" id=\"dataset-1\" data-dataset=\"HAPT\" data-kind=\"continuous\">",
            "<table class=\"figures\">", "<tr data-detector=\"learned\"><th scope=\"row\">learned</th>",
            "<figure class=\"roc operating-points\">", "<svg", "<h4>False alarms (", "<h4>Detections while the device was taken off (",
        ] {
            #expect(dom.contains(part), "\(part) not in the rendered DOM")
        }
        #expect(!result.log.contains("Refused to load"), "\(result.log.suffix(2000))")
        #expect(!result.log.contains("ERR_NAME_NOT_RESOLVED"), "\(result.log.suffix(2000))")
    }

    /// The online protocol's report on a SisFall subset: the ROC sweep, the per-activity table
    /// and the false alarms with their times, in the page and in the JSON alike.
    @Test func sisFallOnlineReport() throws {
        guard let root = try SharedDatasets.unpacked("sisfall-dev.tar.xz", "sisfall") else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        for folder in ["SisFall_dataset", "SisFall_enhanced"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            for subject in ["SA01", "SE01"] {
                try FileManager.default.createSymbolicLink(
                    atPath: dir.appendingPathComponent("\(folder)/\(subject)").path, withDestinationPath: "\(root)/\(folder)/\(subject)")
            }
        }
        let report = dir.appendingPathComponent("report")
        let output = try DetectordProcess.run([
            "bench", "--root", dir.path, "--protocol", "online", "--detector", "c8", "--report", report.path,
            "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as? [String: Any])
        let dataset = try #require((json["datasets"] as? [[String: Any]])?.first)
        #expect(dataset["kind"] as? String == "trials")
        let c8 = try #require((dataset["detectors"] as? [[String: Any]])?.first)
        #expect((c8["roc"] as? [Any])?.isEmpty == false)
        let figures = try #require(c8["figures"] as? [String: Any])
        let alarms = try #require(c8["false_alarms"] as? [[String: Any]])
        #expect(alarms.count == figures["false_alarms"] as? Int)
        #expect(alarms.allSatisfy { $0["seconds"] is Double && ($0["recording"] as? String)?.hasPrefix("D") == true })
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        for part in ["<figure class=\"roc\">", "<polyline class=\"curve\" data-detector=\"c8\"", "<table class=\"activities\">", "<figure class=\"latency\">"] {
            #expect(html.contains(part), "\(part)")
        }
        #expect(html.contains("<table class=\"false-alarms\">") == !alarms.isEmpty)
    }

    @Test func reportNeedsTheOnlineProtocol() throws {
        let output = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--protocol", "trial", "--report", "/tmp/never"])
        #expect(output.status == 64)
        #expect(output.standardError.contains("--report needs --protocol online, --dataset hapt or --dataset csv"))
    }
}

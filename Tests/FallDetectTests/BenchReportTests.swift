import FallDetect
import Foundation
import Testing

@Suite struct BenchReportTests {
    /// A name a hostile or careless dataset could carry: it must show as text.
    static let hostile = "<script>alert('x')</script>&"

    /// Two detectors on a trial dataset (one with a sweep) and one on a continuous dataset.
    static func sample() -> BenchReport {
        var learned = ReportFigures(hours: 2.5, falseAlarms: 2)
        learned.threshold = 0.5
        learned.trials = 120
        learned.falls = 40
        learned.adls = 80
        learned.sensitivity = 0.975
        learned.specificity = 0.9875
        learned.balancedAccuracy = 0.98125
        learned.sensitivityInterval = ReportInterval(lower: 0.9, upper: 1)
        learned.falseAlarmsPerHour = 0.8
        learned.falseAlarmsPerHourInterval = ReportInterval(lower: 0.1, upper: 2.9)
        learned.latencyMedian = 0.42
        learned.latencyP95 = 0.91
        let trials = ReportDataset(
            name: "SisFall", kind: .trials, root: "/data/sisfall", summary: "120 trials, online protocol",
            detectors: [
                ReportDetector(
                    name: "learned", figures: learned,
                    roc: [0.1, 0.5, 0.9].map { ReportROCPoint(threshold: $0, falsePositiveRate: 0.2 * (1 - $0), truePositiveRate: 1 - 0.05 * $0) },
                    operatingPoint: ReportROCPoint(threshold: 0.5, falsePositiveRate: 0.0125, truePositiveRate: 0.975),
                    activities: [
                        ReportActivity(activity: "D07", summary: "sit down", isFall: false, trials: 40, detections: 1),
                        ReportActivity(activity: "F01", summary: "fall forward", isFall: true, trials: 40, detections: 39),
                    ],
                    latencies: [0.3, 0.42, 0.5, 0.91, 1.2],
                    falseAlarms: [ReportEvent(recording: hostile, seconds: 12.25, activity: "D07")],
                    missedFalls: [ReportEvent(recording: "F01_SA01_R03", activity: "F01")]),
                ReportDetector(name: "multiphase", figures: ReportFigures(hours: 2.5, falseAlarms: 0)),
            ],
            references: [BenchPlot.PublishedPoint(label: "C8, paper", sensitivity: 0.95, specificity: 0.96)])
        var hapt = ReportFigures(hours: 2.68, falseAlarms: 1)
        hapt.falseAlarmsPerHour = 1 / 2.68
        hapt.falseAlarmsPerHourInterval = ReportInterval(lower: 0.01, upper: 2.1)
        hapt.removals = 31
        hapt.removalsWithDetection = 1
        let continuous = ReportDataset(
            name: "HAPT", kind: .continuous, root: "/data/hapt", summary: "31 recordings",
            detectors: [
                ReportDetector(
                    name: "learned", figures: hapt, operatingPoint: ReportROCPoint(threshold: nil, falseAlarmsPerHour: 1 / 2.68),
                    activities: [ReportActivity(activity: "stand-to-lie", isFall: false, detections: 1), ReportActivity(activity: "removal", isFall: false, detections: 1)],
                    falseAlarms: [ReportEvent(recording: "user07_exp13", seconds: 301.5, activity: "stand-to-lie")],
                    removalDetections: [ReportEvent(recording: "user09_exp17", seconds: 790.02, activity: "removal")])
            ])
        return BenchReport(title: "bench", generated: "2025-01-01T00:00:00Z", command: "detectord bench --report out", datasets: [trials, continuous])
    }

    @Test func htmlHoldsEveryTableAndPlot() {
        let html = Self.sample().html
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for part in [
            "<section class=\"dataset\" id=\"dataset-1\" data-dataset=\"SisFall\" data-kind=\"trials\">",
            "<section class=\"dataset\" id=\"dataset-2\" data-dataset=\"HAPT\" data-kind=\"continuous\">",
            "<table class=\"figures\">", "<tr data-detector=\"learned\">", "<tr data-detector=\"multiphase\">",
            "<figure class=\"roc\">", "<polyline class=\"curve\" data-detector=\"learned\"", "class=\"operating-point\"", "class=\"published\"",
            "<figure class=\"roc operating-points\">", "<table class=\"activities\">", "<figure class=\"activity-bars\">",
            "<figure class=\"latency\">", "class=\"histogram\"", "<rect class=\"bin\"", "<line class=\"median\"", "<line class=\"p95\"",
            "<table class=\"false-alarms\">", "<td>12.25</td>", "<td>user07_exp13</td><td>301.50</td><td>stand-to-lie</td>",
            "<table class=\"missed-falls\">", "<td>F01_SA01_R03</td>", "<table class=\"removals\">", "<td>user09_exp17</td>",
            "<td class=\"num\">97.50</td>", "<td class=\"num\">90.00–100.00</td>", "<td class=\"num\">420</td>", "<td class=\"num\">1 of 31</td>",
        ] {
            #expect(html.contains(part), "\(part)")
        }
    }

    @Test func namesFromDataAreEscaped() {
        let html = Self.sample().html
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"))
        #expect(HTMLEscaper.escape("a\"b'<>&") == "a&quot;b&#39;&lt;&gt;&amp;")
    }

    /// Self-contained: nothing is loaded from anywhere, and the page's policy refuses it if it were.
    @Test func thePageLoadsNothing() {
        let html = Self.sample().html
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<script"))
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        let withoutNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"))
    }

    @Test func jsonRoundTripsTheFigures() throws {
        let report = Self.sample()
        let data = try report.json()
        #expect(try BenchReport.decode(data) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == BenchReport.currentVersion)
        let datasets = try #require(object["datasets"] as? [[String: Any]])
        #expect(datasets.map { $0["kind"] as? String } == ["trials", "continuous"])
        let learned = try #require((datasets[0]["detectors"] as? [[String: Any]])?.first)
        let figures = try #require(learned["figures"] as? [String: Any])
        #expect(figures["sensitivity"] as? Double == 0.975)
        #expect(figures["latency_p95"] as? Double == 0.91)
        #expect((figures["sensitivity_interval"] as? [String: Double])?["lower"] == 0.9)
        #expect((learned["roc"] as? [[String: Any]])?.count == 3)
        let alarm = try #require((learned["false_alarms"] as? [[String: Any]])?.first)
        #expect(alarm["recording"] as? String == Self.hostile)
        #expect(alarm["seconds"] as? Double == 12.25)
    }

    @Test func nonFiniteFiguresAreRefused() {
        var report = Self.sample()
        report.datasets[0].detectors[0].latencies.append(.nan)
        #expect(throws: FallDetectError.self) { try report.json() }
    }

    @Test func writesBothFilesAndNamesThePathOnFailure() throws {
        let dir = try SharedData.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.sample().write(to: dir + "/a/b")
        #expect(FileManager.default.fileExists(atPath: dir + "/a/b/index.html"))
        let back = try BenchReport.decode(Data(contentsOf: URL(fileURLWithPath: dir + "/a/b/report.json")))
        #expect(back == Self.sample())
        // A folder that cannot be made: under a plain file.
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data())
        do {
            try Self.sample().write(to: dir + "/file/report")
            Issue.record("wrote under a file")
        } catch {
            #expect(error.code == .io)
            #expect(error.path == dir + "/file/report")
        }
    }

    @Test func latencyHistogramCountsEveryFall() {
        let latencies = [0.12, 0.3, 0.31, 0.45, 2.4]
        let bins = LatencyHistogram(latencies: latencies, label: "x").bins
        #expect(bins.reduce(0) { $0 + $1.count } == latencies.count)
        #expect(bins.count <= 24)
        #expect(bins.first.map { $0.start <= 120 } == true)
        #expect(bins.last.map { $0.start + $0.width > 2400 } == true)
        #expect(LatencyHistogram(latencies: [], label: "x").bins.isEmpty)
    }

    /// The online protocol's result carries each false alarm's trial and time into the report.
    @Test func onlineAdapterKeepsFalseAlarmTimesAndMissedFalls() throws {
        let fall = OnlineTrial(
            name: try SisFallTrialName(parsing: "F01_SA01_R01"), samples: 3000, seconds: 15, fallSpan: 5_000_000_000...6_000_000_000, candidates: [])
        let missed = OnlineTrial(
            name: try SisFallTrialName(parsing: "F02_SA01_R01"), samples: 3000, seconds: 15, fallSpan: 5_000_000_000...6_000_000_000, candidates: [])
        let adl = OnlineTrial(name: try SisFallTrialName(parsing: "D07_SA01_R01"), samples: 2400, seconds: 12, fallSpan: nil, candidates: [])
        let result = OnlineProtocol.evaluate(
            detector: "learned", trials: [fall, missed, adl], detections: [[5_500_000_000], [], [3_250_000_000, 9_000_000_000]], threshold: 0.5)
        let d = ReportDetector(online: result, intervals: FigureIntervals(result), sweep: [OperatingPoint(result)])
        #expect(d.falseAlarms == [
            ReportEvent(recording: "D07_SA01_R01", seconds: 3.25, activity: "D07"), ReportEvent(recording: "D07_SA01_R01", seconds: 9, activity: "D07"),
        ])
        #expect(d.missedFalls == [ReportEvent(recording: "F02_SA01_R01", activity: "F02")])
        #expect(d.figures.sensitivity == 0.5 && d.figures.specificity == 0 && d.figures.falseAlarms == 2)
        #expect(d.latencies == [0.5])
        #expect(d.activities.map(\.activity) == ["D07", "F01", "F02"])
        #expect(d.roc.first?.falsePositiveRate == 1 && d.roc.first?.truePositiveRate == 0.5)
    }

    @Test func continuousAdapterListsFalseAlarmsAndRemovals() {
        let result = ContinuousResult(
            detector: "learned", profile: "walking", recordings: 2, activityHours: 1, removals: 2, removalSeconds: 20,
            detections: [
                ContinuousDetection(recording: "r1", subject: "1", seconds: 10, kind: .fall, detector: "fall", place: .activity, activity: "sit-to-lie"),
                ContinuousDetection(recording: "r1", subject: "1", seconds: 99, kind: .fall, detector: "fall", place: .removal, activity: "removal"),
                ContinuousDetection(recording: "r2", subject: "2", seconds: 5, kind: .fall, detector: "fall", place: .activity, activity: "sit-to-lie"),
            ])
        let d = ReportDetector(continuous: result)
        #expect(d.figures.falseAlarms == 2 && d.figures.falseAlarmsPerHour == 2)
        #expect(d.figures.removalsWithDetection == 1 && d.figures.removals == 2)
        #expect(d.figures.sensitivity == nil)
        #expect(d.falseAlarms.map(\.recording) == ["r1", "r2"])
        #expect(d.removalDetections == [ReportEvent(recording: "r1", seconds: 99, activity: "removal")])
        #expect(d.activities.map(\.activity) == ["sit-to-lie", "removal"])
        #expect(d.operatingPoint?.falseAlarmsPerHour == 2)
    }
}

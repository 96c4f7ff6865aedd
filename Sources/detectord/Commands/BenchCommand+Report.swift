import ArgumentParser
import FallDetect
import Foundation
import Synchronization

/// `bench --report DIR`: the run's results as one HTML page and the same as JSON. Each protocol
/// hands its datasets over as `ReportDataset`s, so a run over several datasets adds one each.
extension BenchCommand {
    /// A run over several datasets gathers each one's part here and writes them as one report.
    static let gathered = Mutex<[ReportDataset]?>(nil)

    /// Whether this run's results go into a report (its own, or a run over several datasets').
    var wantsReport: Bool { reportDirectory != nil || Self.gathered.withLock { $0 != nil } }

    /// Writes DIR/index.html and DIR/report.json when --report was given; inside a run over
    /// several datasets, hands the part over instead.
    func writeReport(_ datasets: [ReportDataset]) throws {
        let handedOver = Self.gathered.withLock { gathered -> Bool in
            guard gathered != nil else { return false }
            gathered?.append(contentsOf: datasets)
            return true
        }
        if handedOver { return }
        guard let reportDirectory else { return }
        let report = BenchReport(
            title: "detectord bench: " + datasets.map(\.name).joined(separator: ", "), generated: ISO8601DateFormatter().string(from: Date()),
            command: (["detectord"] + CommandLine.arguments.dropFirst()).joined(separator: " "), datasets: datasets)
        do { try report.write(to: reportDirectory) } catch {
            Terminal.standardError.write("detectord bench: \(error)\n")
            throw ExitCode(73)
        }
        Terminal.standardError.write("report: \(reportDirectory)/index.html and report.json\n")
    }

    /// The online protocol's SisFall run; `summary` is the table, whose first line says what ran.
    func onlineReportDataset(
        summary: String, results: [OnlineProtocolResult], intervals: [FigureIntervals], sweeps: [[OperatingPoint]]
    ) -> ReportDataset {
        let detectors = results.enumerated().map { k, r in
            ReportDetector(online: r, intervals: k < intervals.count ? intervals[k] : nil, sweep: k < sweeps.count ? sweeps[k] : [])
        }
        return ReportDataset(
            name: "SisFall" + (soften != nil ? " (falls softened)" : slow != nil ? " (falls slowed)" : ""), kind: .trials, root: root,
            summary: String(summary.prefix { $0 != "\n" }), detectors: detectors,
            references: BenchPlot.publishedPoints)
    }

    /// A continuous dataset's run (HAPT); `summary` is the line the table starts with.
    func continuousReportDataset(summary: String, root: String, results: [ContinuousResult]) -> ReportDataset {
        ReportDataset(
            name: dataset.uppercased(), kind: .continuous, root: root, summary: String(summary.prefix { $0 != "\n" }),
            detectors: results.map(ReportDetector.init(continuous:)))
    }
}

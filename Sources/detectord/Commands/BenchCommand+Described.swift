import ArgumentParser
import FallDetect
import Foundation

/// `bench --dataset csv --describe FILE`: any folder of recordings its description explains, run
/// through the walking profile as `detectord run` runs it. Continuous datasets report as HAPT does;
/// trial datasets report SE, SP, false alarms per hour of ADL and latency per detector.
extension BenchCommand {
    func runDescribed() throws {
        let err = Terminal.standardError
        let clock = ContinuousClock()
        let started = clock.now
        guard let describe else { throw ValidationError("--dataset csv needs --describe FILE") }
        let description: DatasetDescription
        do { description = try DatasetDescriptionFile.load(path: describe) } catch {
            err.write("\(error)\n")
            throw ExitCode(64)
        }
        let loaded: DescribedDataset.Loaded
        do {
            loaded = try DescribedDataset(description: description, root: root).loadAll()
        } catch {
            err.write("detectord bench: \(error)\n")
            throw ExitCode(error.code == .invalidArgument ? 64 : 66)
        }
        for notice in loaded.notices { err.write("note: \(notice)\n") }
        for problem in loaded.problems { err.write("warning: \(problem)\n") }
        for failure in loaded.failures { err.write("error: \(failure); skipped\n") }
        guard !loaded.recordings.isEmpty else {
            err.write("detectord bench: no readable recording in \(root)\n")
            throw ExitCode(66)
        }
        switch description.kind {
        case .continuous:
            try benchContinuous(
                loaded.recordings, title: "\(description.name) (\(root))", root: root,
                cut: description.removalMargin.map { "each cut \(ProgressLine.fixed($0, 0)) s after its last labelled one" }, started: started)
        case .trials:
            try benchTrials(loaded, name: description.name, started: started)
        }
    }

    func benchTrials(_ loaded: DescribedDataset.Loaded, name: String, started: ContinuousClock.Instant) throws {
        let clock = ContinuousClock()
        var results: [DescribedTrialResult] = []
        for detector in try continuousDetectors() {
            do {
                var result = try DescribedTrialEvaluation.evaluate(
                    loaded.recordings, isFall: loaded.isFallTrial, profile: Self.profile(forDetector: detector))
                result.detector = detector
                results.append(result)
            } catch {
                Terminal.standardError.write("detectord bench: \(detector): \(error)\n")
                throw ExitCode(70)
            }
        }
        let seconds = Self.seconds(started.duration(to: clock.now))
        let table = Self.trialTable(loaded, name: name, root: root, results: results, seconds: seconds)
        Terminal.standardOutput.write(table)
        try writeJSON(Self.trialReport(loaded, name: name, root: root, results: results, seconds: seconds))
        try writeReport([
            ReportDataset(
                name: name, kind: .trials, root: root, summary: String(table.prefix { $0 != "\n" }), detectors: results.map(ReportDetector.init(described:)))
        ])
    }

    static func trialTable(_ loaded: DescribedDataset.Loaded, name: String, root: String, results: [DescribedTrialResult], seconds: Double) -> String {
        let falls = loaded.isFallTrial.filter { $0 }.count
        let subjects = Set(loaded.recordings.map(\.subject)).count
        let adlHours = results.first?.adlHours ?? 0
        var text = "\(name) (\(root)): \(loaded.recordings.count) trials (\(falls) falls, \(loaded.recordings.count - falls) ADL, "
            + "\(ProgressLine.fixed(adlHours, 2)) h of ADL), \(subjects) subjects; profile walking as run uses it, "
            + "a fall found inside its labelled span or \(ProgressLine.fixed(OnlineProtocol.defaultTolerance, 0)) s after, in \(ProgressLine.fixed(seconds, 1)) s\n"
        var lines = [["detector", "SE %", "SP %", "false alarms/h", "latency ms (median/p95)", "detections outside the fall in fall trials"]]
        for r in results {
            lines.append([
                r.detector, percent(r.counts.sensitivity), percent(r.counts.specificity), r.falseAlarmsPerHour.map { ProgressLine.fixed($0, 2) } ?? "-",
                "\(milliseconds(r.medianLatency))/\(milliseconds(r.p95Latency))", String(r.strayDetectionsInFalls.count),
            ])
        }
        text += columns(lines)
        for r in results {
            text += "\(r.detector): falls missed: \(listed(r.missedFalls)); ADL trials with a false alarm: \(listed(r.falseAlarmTrials))\n"
        }
        return text
    }

    /// The first names and how many more, so that a weak detector does not print thousands.
    static func listed(_ names: [String], limit: Int = 20) -> String {
        guard !names.isEmpty else { return "none" }
        return "\(names.count) (" + names.prefix(limit).joined(separator: ", ") + (names.count > limit ? ", …" : "") + ")"
    }

    static func trialReport(_ loaded: DescribedDataset.Loaded, name: String, root: String, results: [DescribedTrialResult], seconds: Double) -> [String: Any] {
        let falls = loaded.isFallTrial.filter { $0 }.count
        return [
            "dataset": "csv", "name": name, "root": root, "kind": "trials", "trials": loaded.recordings.count, "falls": falls,
            "adls": loaded.recordings.count - falls, "adl_hours": results.first?.adlHours ?? 0,
            "subjects": Set(loaded.recordings.map(\.subject)).count, "profile": "walking", "tolerance_s": OnlineProtocol.defaultTolerance,
            "seconds": seconds,
            "detectors": results.map { r -> [String: Any] in
                [
                    "name": r.detector, "trials": r.counts.trials, "falls": r.counts.falls, "adls": r.counts.adls,
                    "sensitivity": json(r.counts.sensitivity), "specificity": json(r.counts.specificity),
                    "balanced_accuracy": json(r.counts.balancedAccuracy), "false_alarms": r.falseAlarms.count,
                    "false_alarms_per_hour": json(r.falseAlarmsPerHour),
                    "latency_ms": ["median": json(r.medianLatency.map { $0 * 1000 }), "p95": json(r.p95Latency.map { $0 * 1000 })],
                    "missed_falls": r.missedFalls, "false_alarm_trials": r.falseAlarmTrials,
                    "stray_detections_in_falls": r.strayDetectionsInFalls.count,
                ]
            },
        ]
    }
}

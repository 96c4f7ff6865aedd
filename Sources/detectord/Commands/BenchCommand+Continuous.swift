import ArgumentParser
import FallDetect
import Foundation

/// `bench --dataset hapt`: continuous recordings of daily life, run through the shipped walking
/// profile exactly as `detectord run` runs it, every detection placed against the labels.
extension BenchCommand {
    /// The fall judges a continuous run compares: the shipped learned one, the same without its
    /// physical bounds (what the bounds change), and the hand-made rules.
    static let continuousDetectors = ["learned", "learned-unbounded", "multiphase"]

    func continuousDetectors() throws -> [String] {
        let name = detector.lowercased()
        if name == "all" { return Self.continuousDetectors }
        guard Self.continuousDetectors.contains(name) else {
            throw ValidationError("--detector with --dataset \(dataset) must be \(Self.continuousDetectors.joined(separator: ", ")) or all, got '\(detector)'")
        }
        return [name]
    }

    func validateContinuous() throws {
        _ = try continuousDetectors()
        if train || soften != nil || slow != nil || plot != nil {
            throw ValidationError("--dataset \(dataset) runs the shipped parameters over continuous recordings; --train, --soften, --slow and --plot need sisfall")
        }
    }

    func runContinuous() throws {
        let err = Terminal.standardError
        let clock = ContinuousClock()
        let started = clock.now
        let data: HAPTDataset
        do { data = try HAPTDataset(root: root) } catch {
            err.write("detectord bench: \(error)\n")
            throw ExitCode(66)
        }
        var recordings: [LabelledRecording] = []
        for outcome in data.loadAll() {
            switch outcome {
            case .success(let (recording, problems)):
                for problem in problems { err.write("warning: \(problem)\n") }
                recordings.append(recording)
            case .failure(let error):
                err.write("error: \(error); skipped\n")
            }
        }
        guard !recordings.isEmpty else {
            err.write("detectord bench: no readable recording in \(data.root)\n")
            throw ExitCode(66)
        }
        try benchContinuous(
            recordings, title: "HAPT (\(data.root))", root: data.root, cut: "each cut \(Int(LabelledRecording.removalMargin)) s after its last labelled one",
            started: started)
    }

    /// The walking profile as `run` uses it, with the fall judge a continuous or trial bench names.
    static func profile(forDetector name: String) -> DetectionProfile {
        var profile = DetectionProfile.walking
        profile.fall = name == "multiphase" ? .multiphase : .learned
        if name == "learned-unbounded" { profile.fallBounds = .off }
        return profile
    }

    /// Runs every detector over continuous recordings and reports them: the table, the wear
    /// monitor, every detection, and the JSON. `cut` says where daily activity ends, if anywhere.
    func benchContinuous(_ recordings: [LabelledRecording], title: String, root: String, cut: String?, started: ContinuousClock.Instant) throws {
        let out = Terminal.standardOutput
        let err = Terminal.standardError
        let clock = ContinuousClock()
        var results: [ContinuousResult] = []
        for name in try continuousDetectors() {
            let profile = Self.profile(forDetector: name)
            do {
                var result = try ContinuousEvaluation.evaluate(recordings, profile: profile)
                result.detector = name
                results.append(result)
            } catch {
                err.write("detectord bench: \(name): \(error)\n")
                throw ExitCode(70)
            }
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        let first = results[0]
        let subjects = Set(recordings.map(\.subject)).count
        let header =
            "\(title): \(first.recordings) recordings of \(subjects) people, \(ProgressLine.fixed(first.activityHours, 2)) h of daily activity "
                + (cut.map { "(\($0)), " } ?? "") + "\(first.removals) removals "
                + "(\(ProgressLine.fixed(first.removalSeconds / 60, 1)) min), profile walking as run uses it, in \(ProgressLine.fixed(seconds, 1)) s\n"
        out.write(header + "\n")
        out.write("detector            false alarms  per hour  95 % interval    removals with a detection\n")
        for r in results {
            let rate = r.falseAlarmsPerHour.map { ProgressLine.fixed($0, 2) } ?? "-"
            let interval = r.falseAlarmsPerHourInterval.map { "\(ProgressLine.fixed($0.lowerBound, 2))–\(ProgressLine.fixed($0.upperBound, 2))" } ?? "-"
            out.write(
                Self.padded(r.detector, 20) + Self.padded(String(r.falseAlarms.count), 14) + Self.padded(rate, 10) + Self.padded(interval, 17)
                    + "\(r.removalsWithDetection) of \(r.removals) (\(r.removalDetections.count) detection\(r.removalDetections.count == 1 ? "" : "s"))\n")
        }
        // HAPT has no falls; a described dataset may.
        for r in results where r.falls > 0 {
            out.write("\(r.detector): \(r.fallsDetected) of \(r.falls) labelled falls found\n")
        }
        // The wear monitor runs the same in every detector's pipeline: report it once.
        out.write(
            "\nnot worn (\(Int(WearParameters().offSeconds)) s resting stiller than any worn device): \(first.removalsSeenOff) of \(first.removals) removals seen, "
                + "\(first.notWornDuringActivity.count) time\(first.notWornDuringActivity.count == 1 ? "" : "s") during daily activity\n")
        for n in first.notWorn {
            out.write("  \(n.recording): off from \(ProgressLine.fixed(n.sinceSeconds, 1)) s, said at \(ProgressLine.fixed(n.seconds, 1)) s\(n.duringRemoval ? "" : " (during daily activity)")\n")
        }
        for r in results where !r.detections.isEmpty {
            out.write("\n\(r.detector):\n")
            for d in r.detections {
                out.write("  \(d.recording) at \(ProgressLine.fixed(d.seconds, 2)) s: \(d.kind.rawValue) (\(d.detector)) during \(d.activity)\n")
            }
        }
        try writeReport([continuousReportDataset(summary: header, root: root, results: results)])
        guard let json else { return }
        let document: [String: Any] = [
            "dataset": dataset, "root": root, "recordings": first.recordings, "subjects": subjects, "activity_hours": first.activityHours,
            "removals": first.removals, "removal_seconds": first.removalSeconds, "profile": "walking", "seconds": seconds,
            "not_worn": first.notWorn.map {
                ["recording": $0.recording, "seconds": $0.seconds, "since_seconds": $0.sinceSeconds, "during_removal": $0.duringRemoval] as [String: Any]
            },
            "detectors": results.map { r -> [String: Any] in
                [
                    "detector": r.detector, "false_alarms": r.falseAlarms.count, "false_alarms_per_hour": Self.json(r.falseAlarmsPerHour),
                    "false_alarms_per_hour_interval": Self.json(r.falseAlarmsPerHourInterval),
                    "false_alarms_per_activity": r.falseAlarmsPerActivity, "removals_with_detection": r.removalsWithDetection,
                    "falls": r.falls, "falls_detected": r.fallsDetected,
                    "removal_detections": r.removalDetections.count,
                    "detections": r.detections.map {
                        ["recording": $0.recording, "subject": $0.subject, "seconds": $0.seconds, "kind": $0.kind.rawValue, "detector": $0.detector,
                         "place": $0.place.rawValue, "activity": $0.activity] as [String: Any]
                    },
                ]
            },
        ]
        do {
            let bytes = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            try bytes.write(to: URL(fileURLWithPath: json))
        } catch {
            err.write("detectord bench: \(json): cannot write: \(error.localizedDescription)\n")
            throw ExitCode(73)
        }
    }
}

import ArgumentParser
import FallDetect
import Foundation

/// `detectord bench --protocol online`: the fall detectors run through every trial as the daemon
/// would, scored against SisFall_enhanced's per-sample labels.
extension BenchCommand {
    /// "learned+stillness" is the learned detector followed by the confirmation stage,
    /// "learned+recovery" the learned detector followed by the recovery check.
    /// "c8" is the paper's feature run online (`OnlineBaseline`).
    static let onlineDetectorNames = ["c8", "multiphase", "learned", "learned+stillness", "learned+recovery", "learned+stillness+recovery"]

    func onlineDetectors() throws -> [String] {
        let name = detector.lowercased()
        if name == "all" { return Self.onlineDetectorNames + (external.command != nil ? [Self.externalName] : []) }
        if name == Self.externalName { return [name] }
        guard Self.onlineDetectorNames.contains(name) else {
            throw ValidationError(
                "--detector with --protocol online must be \(Self.onlineDetectorNames.joined(separator: ", ")), external or all, got '\(detector)'")
        }
        return [name]
    }

    /// The shipped judge of a detector.
    static func shippedJudge(_ name: String) throws(FallDetectError) -> any FallJudge {
        name.hasPrefix("learned") ? try LearnedFallJudge.shipped() : try MultiphaseFallJudge()
    }

    func runOnline() throws {
        let err = Terminal.standardError
        let names = try onlineDetectors()
        let clock = ContinuousClock()
        let started = clock.now
        let scan: OnlineScan
        var results: [OnlineProtocolResult] = []
        var sweeps: [[OperatingPoint]] = []
        // Per detector with the recovery check, each fold's chosen setting (with --train).
        var recoverySettings: [(detector: String, settings: [(threshold: Float, recovery: RecoveryParameters)])] = []
        // Per fold, scores for choosing the stages' settings from models that never saw it.
        var nested: [[[Float]]]?
        var heldOut: HeldOutNegatives?
        var externalOutcome: ExternalOutcome?
        do {
            let data = try SisFallDataset(root: root)
            guard !data.entries.isEmpty else { throw FallDetectError(.noData, "no SisFall trials found", path: data.rawDirectory) }
            guard data.hasEnhancedLabels else {
                throw FallDetectError(
                    .noData, "the online protocol needs SisFall_enhanced/ (per-sample fall labels) beside SisFall_dataset/",
                    path: data.enhancedDirectory)
            }
            scan = try OnlineScan(dataset: data, decimation: 200 / rate, accelerometerRange: accelerometerRange, cache: trialCache())
            for notice in scan.notices { err.write("note: \(notice)\n") }
            if !scan.suspectGyroscope.isEmpty {
                err.write("note: \(scan.suspectGyroscope.count) trials' gyroscope reported turns no body makes, so their tilt followed "
                    + "the accelerometer for a while: " + scan.suspectGyroscope.map(\.description).joined(separator: ", ") + "\n")
            }
            if !scan.fallsWithoutLabels.isEmpty {
                err.write("note: \(scan.fallsWithoutLabels.count) fall trials have no labels and are left out: "
                    + scan.fallsWithoutLabels.prefix(5).map(\.description).joined(separator: ", ") + "\n")
            }
            // With --soften or --slow every detector is fitted as without it and tested on the
            // same trials with their falls softened or slowed.
            let stressed = soften != nil || slow != nil
                ? try OnlineScan(
                    dataset: data, decimation: 200 / rate, softening: soften.map { try FallSoftening(scale: $0) },
                    slowing: slow.map { try FallSlowing(factor: $0) }, accelerometerRange: accelerometerRange, cache: trialCache())
                : nil
            let tested = stressed?.trials ?? scan.trials
            // The learned model of each fold trains on its subjects' softened copies as well.
            let copies = train && names.contains(where: { $0.hasPrefix("learned") })
                ? try trainer.augmentation.trials(of: data, decimation: 200 / rate, cache: trialCache()) : []
            let negativeRecordings = try negatives.map { try Self.loadHAPT(root: $0) } ?? []
            let negativeRows = try NegativeCandidates.scan(negativeRecordings)
            var learnedScores: (fitted: [[Float]], tested: [[Float]])?
            // The recovery detectors choose their settings per fold on scores from models that
            // never saw that fold (nested), computed once for both. A split too small for it (a
            // pair of folds without falls to train on) falls back to plain out-of-fold scores.
            if train, !shippedStages, names.contains(where: { $0.contains("+recovery") }) {
                do {
                    nested = try OnlineCrossValidation.nestedScores(
                        scan.trials, folds: folds, trainer: trainer.trainer, augmented: copies, negatives: negativeRows, foldSeed: foldSeed)
                } catch {
                    guard error.code == .noData else { throw error }
                    err.write("note: the stages' settings are chosen on out-of-fold scores without nesting: \(error)\n")
                }
            }
            var learnedThreshold: Float = 0.5
            for name in names where name == OnlineBaseline.name {
                // C8 has no shipped threshold: fitted on all trials, or per fold with --train.
                results.append(
                    train
                        ? try OnlineBaseline.crossValidate(scan.trials, folds: folds, tested: tested, foldSeed: foldSeed)
                        : OnlineBaseline.evaluate(tested, threshold: OnlineBaseline.bestThreshold(scan.trials)))
                if plot != nil || json != nil || wantsReport { sweeps.append(OnlineBaseline.sweep(tested)) }
            }
            for name in names where name == Self.externalName {
                let outcome = try runExternal(data: data, scan: scan, stressed: stressed)
                results.append(outcome.result)
                if plot != nil || json != nil { sweeps.append(outcome.sweep) }
                externalOutcome = outcome
            }
            for name in names where name != OnlineBaseline.name && name != Self.externalName {
                let shipped = try Self.shippedJudge(name)
                let confirmed = name.contains("+stillness")
                // The shipped recovery setting, or per fold with --train.
                var recovery = name.contains("+recovery") ? RecoveryParameters.grid.firstIndex(of: RecoveryParameters()) : nil
                var scores = OnlineProtocol.scores(of: shipped, in: tested)
                var fittedScores = scores
                var threshold = shipped.threshold
                if train, name.hasPrefix("learned"), let known = learnedScores {
                    // The same out-of-fold models: the stage after them changes nothing they learnt.
                    (fittedScores, scores) = known
                    threshold = learnedThreshold
                } else if train, name.hasPrefix("learned") {
                    let validated = try OnlineCrossValidation.learned(
                        scan.trials, folds: folds, trainer: trainer.trainer, threshold: shipped.threshold, augmented: copies,
                        negatives: negativeRows, tested: stressed?.trials, foldSeed: foldSeed)
                    (fittedScores, scores) = (validated.fittedScores, validated.scores)
                    threshold = validated.result.threshold
                    (learnedScores, learnedThreshold) = ((fittedScores, scores), threshold)
                }
                if train, !name.hasPrefix("learned") {
                    // Per-fold thresholds: the pooled result comes from the folds themselves.
                    let validated = try OnlineCrossValidation.multiphase(scan.trials, folds: folds, tested: tested, foldSeed: foldSeed)
                    (scores, threshold) = (validated.scores, validated.result.threshold)
                    results.append(validated.result)
                } else if train, recovery != nil, !shippedStages {
                    // Per-fold recovery settings, chosen on the other folds' detections by models
                    // that saw neither them nor the fold tested.
                    let validated = try OnlineCrossValidation.recovery(
                        scan.trials, folds: folds, scores: fittedScores, nested: nested, thresholds: Self.recoveryThresholds, confirmed: confirmed,
                        targetSensitivity: Self.targetSensitivity, tested: (tested, scores), detector: name, foldSeed: foldSeed)
                    results.append(validated.result)
                    recoverySettings.append((name, zip(validated.thresholds, validated.recoverySettings).map { ($0, RecoveryParameters.grid[$1]) }))
                    recovery = Self.mostChosen(validated.recoverySettings)
                } else {
                    results.append(
                        OnlineProtocol.evaluate(
                            detector: name, trials: tested, scores: scores, threshold: threshold, confirmed: confirmed, recovery: recovery))
                }
                if plot != nil || json != nil || wantsReport {
                    sweeps.append(
                        OnlineProtocol.sweep(
                            trials: tested, scores: scores, thresholds: Self.sweepThresholds(name), confirmed: confirmed, recovery: recovery))
                }
            }
            if !negativeRecordings.isEmpty {
                heldOut = try heldOutNegatives(trials: scan.trials, copies: copies, recordings: negativeRecordings, rows: negativeRows)
            }
        } catch let error as FallDetectError {
            err.write("detectord bench: \(error)\n")
            throw ExitCode(error.code == .invalidArgument ? 64 : 66)
        }
        let wall = Self.seconds(started.duration(to: clock.now))
        // Each a bootstrap of 2000 draws: computed once for the table and the JSON.
        let intervals = results.map { FigureIntervals($0) }
        var table = onlineTable(scan: scan, results: results, intervals: intervals, wallSeconds: wall)
        for (detector, settings) in recoverySettings {
            table += "\(detector): per fold\(nested != nil ? " (nested)" : ""), threshold and recovery setting (upright within °, for s): "
                + settings.map {
                    "\(ProgressLine.fixed(Double($0.threshold), 2)) \(ProgressLine.fixed(Double($0.recovery.uprightTilt), 0))/"
                        + ProgressLine.fixed(Double($0.recovery.uprightSeconds), 0)
                }
                .joined(separator: ", ") + "\n"
        }
        if let heldOut { table += Self.heldOutTable(heldOut) }
        table += externalOutcome?.note ?? ""
        Terminal.standardOutput.write(table)
        var report = onlineReport(scan: scan, results: results, intervals: intervals, sweeps: sweeps, wallSeconds: wall)
        if var detectors = report["detectors"] as? [[String: Any]] {
            for (detector, settings) in recoverySettings {
                guard let k = detectors.firstIndex(where: { $0["name"] as? String == detector }) else { continue }
                detectors[k]["recovery_choice_nested"] = nested != nil
                detectors[k]["recovery_settings"] = settings.map {
                    [
                        "threshold": Double($0.threshold), "window_seconds": Double($0.recovery.windowSeconds),
                        "upright_tilt": Double($0.recovery.uprightTilt), "upright_seconds": Double($0.recovery.uprightSeconds),
                    ]
                }
            }
            if let outcome = externalOutcome, let k = detectors.firstIndex(where: { $0["name"] as? String == outcome.result.detector }) {
                detectors[k].merge(outcome.json) { _, new in new }
            }
            report["detectors"] = detectors
        }
        try writeJSON(report)
        if let plot {
            let curves = zip(results, sweeps).map { result, sweep in
                BenchPlot.Curve(
                    name: result.detector, points: sweep,
                    operatingPoint: OperatingPoint(result),
                    perActivity: result.perActivity)
            }
            let title = "SisFall online protocol, \(Set(scan.trials.map(\.name.subject)).count) subjects"
                + (train ? ", \(folds)-fold cross-validated by subject" : ", shipped parameters")
                + (soften.map { ", falls softened to \(ProgressLine.fixed(Double($0), 2))" } ?? "")
                + (slow.map { ", falls slowed \(ProgressLine.fixed(Double($0), 2)) times" } ?? "")
            try writePlot(BenchPlot(title: title, curves: curves, published: BenchPlot.publishedPoints).svg, to: plot)
        }
        try writeReport([onlineReportDataset(summary: table, results: results, intervals: intervals, sweeps: sweeps)])
    }

    /// The softened copies' scales that learned models of `results` were trained with: `--augment`'s
    /// (validated before `run`) with `--train`, none otherwise.
    func trainedScales(_ results: [OnlineProtocolResult]) -> [Float] {
        guard train, results.contains(where: { $0.detector.hasPrefix("learned") }) else { return [] }
        return (try? trainer.augmentation)?.scales ?? []
    }

    /// Learned thresholds the recovery detectors choose among per fold.
    static let recoveryThresholds: [Float] = (2...18).map { Float($0) * 0.05 }
    /// The sensitivity the staged detectors' per-fold choice must reach before it trades
    /// sensitivity for fewer false alarms: the issue's target.
    static let targetSensitivity = 0.99

    /// The setting most folds chose (the first of equals), for the sweep.
    static func mostChosen(_ settings: [Int]) -> Int? {
        let counts = Dictionary(settings.map { ($0, 1) }, uniquingKeysWith: +)
        return settings.max { counts[$0, default: 0] < counts[$1, default: 0] }
    }

    /// Thresholds each detector's curve is traced at: probabilities for the learned judge,
    /// impacts in g for the multiphase one.
    static func sweepThresholds(_ name: String) -> [Float] {
        name.hasPrefix("learned") ? (1...99).map { Float($0) / 100 } : (0...60).map { 1.5 + Float($0) * 0.1 }
    }

    func writePlot(_ svg: String, to path: String) throws {
        do { try svg.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            Terminal.standardError.write("detectord bench: \(path): cannot write: \(error.localizedDescription)\n")
            throw ExitCode(73)
        }
    }

    static func milliseconds(_ seconds: Double?) -> String { seconds.map { "\(Int(($0 * 1000).rounded()))" } ?? "-" }

    func onlineTable(scan: OnlineScan, results: [OnlineProtocolResult], intervals: [FigureIntervals], wallSeconds: Double) -> String {
        let falls = scan.trials.reduce(0) { $0 + ($1.name.isFall ? 1 : 0) }
        let subjects = Set(scan.trials.map(\.name.subject)).count
        let adlHours = results.first?.adlHours ?? 0
        var text = "SisFall at \(root): \(scan.trials.count) trials (\(falls) falls, \(scan.trials.count - falls) ADL, "
            + "\(ProgressLine.fixed(adlHours, 2)) h of ADL), \(subjects) subjects; online protocol, "
            + (train ? "\(folds) folds by subject\(foldSeed == 0 ? "" : " (dealt after shuffling with seed \(foldSeed))"), parameters fitted on the other folds" : "shipped parameters")
            + (shippedStages ? " but the stages' shipped threshold and setting" : "")
            + (trainedScales(results).isEmpty ? "" : " (the learned model also on its falls softened to "
                + trainedScales(results).map { ProgressLine.fixed(Double($0), 2) }.joined(separator: ", ") + ")")
            + (scan.decimation > 1 ? ", at \(rate) Hz (one sample in \(scan.decimation))" : "")
            + (soften.map { "; tested on falls softened to \(ProgressLine.fixed(Double($0), 2)) of their departure from 1 g" } ?? "")
            + (slow.map { "; tested on falls replayed \(ProgressLine.fixed(Double($0), 2)) times slower" } ?? "") + "\n"
        let header = ["detector", "SE %", "SP %", "AC %", "false alarms/h", "latency ms (median/p95)", "young SE/SP %", "elderly SE/SP %", "threshold"]
        var lines = [header]
        for r in results {
            let young = r.byGroup[.young] ?? .init()
            let elderly = r.byGroup[.elderly] ?? .init()
            lines.append([
                r.detector, Self.percent(r.counts.sensitivity), Self.percent(r.counts.specificity), Self.percent(r.counts.balancedAccuracy),
                r.falseAlarmsPerHour.map { ProgressLine.fixed($0, 2) } ?? "-",
                "\(Self.milliseconds(r.medianLatency))/\(Self.milliseconds(r.p95Latency))",
                "\(Self.percent(young.counts.sensitivity))/\(Self.percent(young.counts.specificity))",
                "\(Self.percent(elderly.counts.sensitivity))/\(Self.percent(elderly.counts.specificity))",
                ProgressLine.fixed(Double(r.threshold), 3),
            ])
        }
        text += Self.columns(lines)
        for r in results where r.detectionLatencies != r.latencies {
            text += "\(r.detector): decided at \(Self.milliseconds(r.medianDetectionLatency))/\(Self.milliseconds(r.p95DetectionLatency)) ms "
                + "from fall onset (median/p95), confirmed at \(Self.milliseconds(r.medianLatency))/\(Self.milliseconds(r.p95Latency)) ms\n"
        }
        text += "95 % intervals (SE and SP resampling whole subjects, false alarms/h exact Poisson):\n"
        for (r, i) in zip(results, intervals) {
            text += "  \(r.detector): SE \(Self.percentRange(i.sensitivity)) %, SP \(Self.percentRange(i.specificity)) %, "
                + "\(i.falseAlarmsPerHour.map { "\(ProgressLine.fixed($0.lowerBound, 2))–\(ProgressLine.fixed($0.upperBound, 2))" } ?? "-") false alarms/h\n"
        }
        for r in results {
            text += "\(r.detector): \(Self.activitySummary(r.perActivity))"
                + (r.strayDetectionsInFalls > 0 ? "; \(r.strayDetectionsInFalls) detections in fall trials outside the fall window" : "") + "\n"
        }
        text += "\(scan.samples) samples through fusion and the candidate tracker in \(ProgressLine.fixed(scan.computeSeconds, 2)) s of compute "
            + "(\(ProgressLine.rate(scan.computeSeconds > 0 ? Double(scan.samples) / scan.computeSeconds : 0)) samples/s per core); "
            + "wall \(ProgressLine.fixed(wallSeconds, 2)) s including loading\(train ? " and training" : "")\n"
        return text
    }

    func onlineMetrics(counts: ConfusionCounts, falseAlarmsPerHour: Double?, median: Double?, p95: Double?) -> [String: Any] {
        [
            "trials": counts.trials, "falls": counts.falls, "adls": counts.adls,
            "sensitivity": Self.json(counts.sensitivity), "specificity": Self.json(counts.specificity),
            "balanced_accuracy": Self.json(counts.balancedAccuracy), "false_alarms_per_hour": Self.json(falseAlarmsPerHour),
            "latency_ms": ["median": Self.json(median.map { $0 * 1000 }), "p95": Self.json(p95.map { $0 * 1000 })],
        ]
    }

    func onlineReport(
        scan: OnlineScan, results: [OnlineProtocolResult], intervals: [FigureIntervals], sweeps: [[OperatingPoint]], wallSeconds: Double
    ) -> [String: Any] {
        let falls = scan.trials.reduce(0) { $0 + ($1.name.isFall ? 1 : 0) }
        var detectors: [[String: Any]] = []
        for (k, r) in results.enumerated() {
            var entry = onlineMetrics(counts: r.counts, falseAlarmsPerHour: r.falseAlarmsPerHour, median: r.medianLatency, p95: r.p95Latency)
            var groups: [String: Any] = [:]
            for (key, group) in [("young", SisFallTrialName.Group.young), ("elderly", .elderly)] {
                let g = r.byGroup[group] ?? .init()
                groups[key] = onlineMetrics(counts: g.counts, falseAlarmsPerHour: g.falseAlarmsPerHour, median: g.medianLatency, p95: g.p95Latency)
            }
            var perActivity: [String: Any] = [:]
            for (code, c) in r.perActivity {
                perActivity[code] = ["trials": c.trials, "triggers": c.triggered, "missed": c.fallsMissed, "false_alarms": c.falseAlarms]
            }
            entry["name"] = r.detector
            entry["protocol"] = "online"
            entry["by_group"] = groups
            entry["per_activity"] = perActivity
            entry["false_alarms"] = r.falseAlarms
            entry["stray_detections_in_falls"] = r.strayDetectionsInFalls
            entry["false_alarm_trials"] = r.falseAlarmTrials.map(\.description)
            entry["missed_falls"] = r.missedFalls.map(\.description)
            entry["threshold"] = Double(r.threshold)
            let i = intervals[k]
            entry["intervals"] = [
                "level": i.level, "method": "subject bootstrap (SE, SP); exact Poisson (false alarms per hour)",
                "sensitivity": Self.json(i.sensitivity), "specificity": Self.json(i.specificity),
                "false_alarms_per_hour": Self.json(i.falseAlarmsPerHour),
            ]
            // Before any confirmation stage: when the detector decided (the alert countdown's start).
            entry["detection_latency_ms"] = [
                "median": Self.json(r.medianDetectionLatency.map { $0 * 1000 }), "p95": Self.json(r.p95DetectionLatency.map { $0 * 1000 }),
            ]
            if k < sweeps.count {
                entry["sweep"] = sweeps[k].map {
                    ["threshold": Double($0.threshold), "sensitivity": $0.sensitivity, "specificity": $0.specificity,
                     "false_alarms_per_hour": $0.falseAlarmsPerHour]
                }
            }
            entry["cross_validated"] = train
            if train { entry["folds"] = folds }
            entry["samples"] = scan.samples
            entry["seconds"] = scan.computeSeconds
            entry["samples_per_second"] = scan.computeSeconds > 0 ? Double(scan.samples) / scan.computeSeconds : 0
            detectors.append(entry)
        }
        return [
            "dataset": "sisfall", "root": root, "trials": scan.trials.count, "falls": falls, "adls": scan.trials.count - falls,
            "adl_hours": results.first?.adlHours ?? 0, "subjects": Set(scan.trials.map(\.name.subject)).count,
            "protocol": "online", "tolerance_s": OnlineProtocol.defaultTolerance, "sample_rate_hz": rate, "wall_seconds": wallSeconds,
            "soften": soften.map { Double($0) as Any } ?? NSNull(), "slow": slow.map { Double($0) as Any } ?? NSNull(),
            "shipped_stages": shippedStages, "fold_seed": foldSeed,
            "augment": trainedScales(results).map(Double.init), "detectors": detectors,
        ]
    }
}

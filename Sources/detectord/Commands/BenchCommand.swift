import ArgumentParser
import FallDetect
import Foundation

/// `detectord bench`: the SisFall paper's baseline features under its per-trial protocol, cross-
/// validated by subject, as a table and optionally as JSON.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Evaluate detectors over a dataset: the SisFall paper's features (trial protocol) and the fall detectors (online protocol).",
        discussion: """
            DIR is any folder laid out like SisFall (SisFall_dataset/ with any subset of subjects). Detectors \
            are the paper's features (Sucerquia et al. 2017): C2, C3, C8, C9, C13 on ADXL345 acceleration \
            low-passed at 5 Hz (4th-order Butterworth), 1 s windows with full overlap; a trial's score is the \
            feature's maximum. Trial protocol: one decision per trial (score >= threshold -> fall), the \
            threshold chosen on the training folds to maximise AC = (SE+SP)/2, K folds by subject (subjects \
            sorted by code and dealt round-robin), every trial tested once. Reported: SE, SP, AC pooled over \
            the held-out folds, AC mean ± std over folds, young and elderly apart, which ADL codes trigger and \
            which falls are missed. In --json, rates are fractions 0..1; seconds is the compute time of the \
            feature summed over trials on one core. Trials load in parallel, from the parsed-trial cache when \
            it is current.

            Online protocol (--protocol online; detectors c8, multiphase, learned, learned+stillness, \
            learned+recovery, learned+stillness+recovery or all): each detector runs through every trial as the daemon would: AHRS fusion, the fall candidate tracker, the judge and a \
            30 s one-detection-per-event gate. A detection inside the labelled FALL span of SisFall_enhanced/ \
            or at most 2 s after it detects the fall; any other detection is a false alarm. Reported: SE, SP \
            (ADL trials without a detection), AC, false alarms per hour of ADL, latency from fall onset (the \
            first sample labelled FALL) median and p95, young and elderly apart, per activity, and 95 % \
            intervals (SE and SP by resampling whole subjects, false alarms per hour exact Poisson); the JSON \
            also names the ADL trials with a false alarm and the missed falls. Without \
            --train the shipped parameters are evaluated as they are; with --train every fold is tested with \
            parameters fitted on the other folds' subjects only (the learned model retrained on their \
            trials and on copies of their falls softened as --augment asks, the multiphase impact \
            threshold re-chosen). learned+stillness is the learned detector followed by the \
            confirmation stage (2 s of stillness within 5 s; a detection counts when confirmed, up to 5 s \
            later than the fall window allows). +recovery adds the recovery check: a detection is \
            withdrawn when the wearer is upright again (trunk within 30° of vertical for 2 s) within 10 s; \
            a trial that ends first counts as staying down; with --train the upright bound and seconds, \
            and the learned threshold in front of the check, are chosen per fold on the other folds' \
            subjects, scored by models that saw neither them nor the fold tested (nested; plain \
            out-of-fold scores when the split is too small, with a note): the fewest false alarms among \
            the choices that keep 99 % of their falls \
            (--shipped-stages keeps the shipped threshold and setting, the model still retrained per \
            fold). c8 is the paper's feature run online: a detection when it crosses its threshold upward, which is fitted on the trials given (per fold with --train). \
            --rate runs the online protocol at a lower sample rate. --soften K tests every detector on \
            the fall trials with |a| - 1 g scaled by K from 0.1 s before the labelled fall to 0.3 s after \
            its impact (the gyroscope untouched), all fitting done as without it (on the trials as \
            recorded, and --augment's copies for the learned model): how much of the sensitivity rests \
            on hard, fast falls. --slow S instead replays that stretch of each fall S times slower \
            (angular rate / S, acceleration beyond gravity / S², the rest of the trial later by the \
            added time), a transform no model trains on.

            --dataset hapt reads HAPT's continuous recordings (DIR holds recordings/userNN_expK.csv: a waist \
            phone at 50 Hz, labelled daily activities, no falls) and runs them through the walking profile \
            exactly as `run` uses it (--detector learned, learned-unbounded: the same model without its \
            physical bounds, multiphase, or all). Each recording's daily activity ends 2 s after its last \
            labelled sample; every detection before is a false alarm, named with the activity it fell in, \
            and every detection after is one at the device's removal (the phone taken off and set down), \
            counted apart. Reported: false alarms per hour with an exact Poisson 95 % interval, removals \
            with a detection, and every detection; --json writes the same.

            --detector external runs a detector in another process (--external-command), under the same \
            trials, folds and report: recordings go to it as JSON lines on stdin, detections come back on stdout \
            (docs/external-detectors.md). Its threshold is fitted as c8's unless its hello brings its own; \
            Examples/detectors/c8.py is c8 in Python and gives c8's figures.

            --dataset csv --describe FILE reads any folder of recordings that FILE describes (TOML: files, \
            columns, units, axes, labels and where the falls are; docs/dataset-description.md, examples in \
            Datasets/descriptions/). A continuous description runs and reports as --dataset hapt; a trials \
            description runs each file as one trial through the same walking profile and reports SE, SP, false \
            alarms per hour of ADL and latency from fall onset (median/p95) per detector, a detection counting \
            for the fall inside the labelled fall or at most 2 s after it.

            --plot writes an SVG: each detector's threshold sweep as a ROC curve (trials), its operating \
            point, the paper's published points, and the share of trials with a detection per activity code. \
            --report DIR (online protocol and --dataset hapt) creates DIR and writes one self-contained HTML \
            page, DIR/index.html (tables, each detector's ROC or operating point, detections per activity, a \
            latency histogram, every false alarm with its recording and time, and the missed falls), and the \
            same content as DIR/report.json.
            """)

    @Option(name: .customLong("dataset"), help: ArgumentHelp(
        "Dataset layout: sisfall (trials with fall labels), hapt (continuous daily activities from a waist phone, no falls; the folder holding recordings/) or csv (as --describe says). "
            + "Repeat it, with a --root each (and a --describe each csv), to run several datasets in one go: a table each, then a row per dataset and detector.",
        valueName: "name"))
    var datasets: [String] = []

    @Option(help: ArgumentHelp(
        "With --protocol online --train: also train every learned model on the fall candidates of this HAPT folder (continuous daily life, no falls) "
            + "as non-falls, and test HAPT held out by subject and left out whole.",
        valueName: "dir"))
    var negatives: String?

    @Option(name: .customLong("root"), help: ArgumentHelp("Folder holding SisFall_dataset/ (or, with --dataset hapt, recordings/; with --dataset csv, what the description's patterns start from); one per --dataset, in order.", valueName: "dir"))
    var roots: [String] = []

    @Option(name: .customLong("describe"), help: ArgumentHelp("With --dataset csv: the dataset description (TOML, docs/dataset-description.md); one per csv dataset, in order.", valueName: "file"))
    var descriptions: [String] = []

    @Option(help: ArgumentHelp("Trial protocol: c2, c3, c8, c9, c13 or all. Online protocol: c8, multiphase, learned, learned+stillness, learned+recovery, learned+stillness+recovery, external (with --external-command) or all.", valueName: "name"))
    var detector: String = "all"

    @Option(name: .customLong("protocol"), help: ArgumentHelp("trial (the paper's, one decision per trial) or online (as the daemon runs).", valueName: "name"))
    var evaluationProtocol: String = "trial"

    @Flag(help: "Online protocol: cross-validate, fitting each fold's parameters on the other folds' subjects.")
    var train = false

    @Flag(name: .customLong("shipped-stages"), help: "With --train: retrain the learned model per fold but keep the shipped threshold and recovery setting of the +recovery detectors instead of choosing them per fold (what a user of the shipped settings gets on people the model never saw).")
    var shippedStages = false

    @Option(name: .customLong("rate"), help: ArgumentHelp("Online protocol: run at this sample rate, keeping every n-th of SisFall's 200 Hz samples (200, 100, 50, 40, 25, 20).", valueName: "hz"))
    var rate: Int = 200

    @Option(name: .customLong("range"), help: ArgumentHelp("Online protocol: run as an accelerometer of this full scale would record, in g (2 to 16): every axis of SisFall's ±16 g data clipped there, the saturation flagged as the daemon flags it.", valueName: "g"))
    var accelerometerRange: Float = 16

    @Option(name: .customLong("soften"), help: ArgumentHelp("Online protocol: test on the falls with every acceleration's departure from 1 g scaled by this factor in (0, 1], from 0.1 s before the fall to 0.3 s after its impact; everything is fitted as without it. A stress test for softer, slower falls.", valueName: "k"))
    var soften: Float?

    @Option(name: .customLong("slow"), help: ArgumentHelp("Online protocol: test on the falls replayed this many times slower, in [1, 3], from 0.1 s before the fall to 0.3 s after its impact (angular rate / S, acceleration beyond gravity / S²); everything is fitted as without it. A stress test for slower falls; not with --soften.", valueName: "s"))
    var slow: Float?

    @OptionGroup(title: "External detector (--detector external)")
    var external: ExternalDetectorOptions

    @OptionGroup(title: "Learned detector training (with --train)")
    var trainer: TrainerOptions

    @Option(help: ArgumentHelp("Cross-validation folds, split by subject (2 up to the number of subjects).", valueName: "k"))
    var folds: Int = 10

    @Option(
        name: .customLong("fold-seed"),
        help: ArgumentHelp(
            "Online protocol with --train: 0 deals the subjects to the folds in code order; another number shuffles them first "
                + "(young and older apart), cutting other folds from the same data, to see how much a figure owes to one cut.",
            valueName: "n"))
    var foldSeed: UInt64 = 0

    @Option(help: ArgumentHelp("Write the results as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Draw the detectors' ROC sweeps and detections per activity code as SVG.", valueName: "file.svg"))
    var plot: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Online protocol or --dataset hapt: write a self-contained HTML report (index.html) and the same as JSON (report.json) into this folder, creating it.",
            valueName: "dir"))
    var reportDirectory: String?

    @Option(name: .customLong("i2c"), help: ArgumentHelp(
        "Measure the I2C driver path instead of detection: this chip (or all; repeatable) on the simulated bus at 200 and 1000 Hz, FIFO against polling: bus transfers and bytes per second of data (exact counts) and CPU per second of data.",
        valueName: "chip"))
    var i2cChips: [String] = []

    @Option(name: .customLong("i2c-seconds"), help: ArgumentHelp("With --i2c: seconds of simulated data per measurement.", valueName: "s"))
    var i2cSeconds: Double = 30

    @Option(name: .customLong("keychain"), help: ArgumentHelp(
        "Measure the keychain path instead of detection: this many presses of a fake iTag through the daemon's ATT client, press classifier and workflow (press to decision, p50/p99), reconnects after drops, and the same presses at the event level as the peer.",
        valueName: "presses"))
    var keychainPresses: Int?

    @Option(help: ArgumentHelp("Folder for the parsed-dataset cache (default: $XDG_CACHE_HOME/detectord or ~/.cache/detectord).", valueName: "dir"))
    var cache: String?

    /// The dataset this run evaluates (the first; a run over several evaluates each in a copy).
    var dataset: String { datasets.first ?? "sisfall" }
    var root: String { roots.first ?? "" }
    var describe: String? { dataset == "csv" ? descriptions.first : nil }
    var runsSeveral: Bool { datasets.count > 1 }

    func validate() throws {
        if !i2cChips.isEmpty { return try validateI2C() }
        if let keychainPresses {
            guard (1...10_000).contains(keychainPresses) else { throw ValidationError("--keychain takes 1 to 10000 presses") }
            return
        }
        guard roots.count == max(1, datasets.count) else {
            throw ValidationError("give one --root per --dataset, in the same order (\(max(1, datasets.count)) dataset(s), \(roots.count) root(s))")
        }
        guard descriptions.count == datasets.filter({ $0 == "csv" }).count else {
            throw ValidationError("give one --describe FILE per --dataset csv, in the same order")
        }
        if runsSeveral {
            guard json == nil, plot == nil else { throw ValidationError("with several --dataset, --report DIR holds them all; --json and --plot take one dataset") }
            for copy in each() { try copy.validate() }
            return
        }
        guard ["sisfall", "hapt", "csv"].contains(dataset) else { throw ValidationError("--dataset must be sisfall, hapt or csv, got '\(dataset)'") }
        guard (dataset == "csv") == (describe != nil) else { throw ValidationError("--describe FILE goes with --dataset csv, and --dataset csv needs it") }
        if dataset != "sisfall" { return try validateContinuous() }
        guard evaluationProtocol == "trial" || evaluationProtocol == "online" else {
            throw ValidationError("--protocol must be trial or online, got '\(evaluationProtocol)'")
        }
        try validateExternal()
        if evaluationProtocol == "online" { _ = try onlineDetectors() } else { _ = try features() }
        if reportDirectory != nil, evaluationProtocol != "online" { throw ValidationError("--report needs --protocol online, --dataset hapt or --dataset csv") }
        guard rate > 0, 200 % rate == 0, rate >= 20 else { throw ValidationError("--rate must divide 200 and be at least 20, got \(rate)") }
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2") }
        guard accelerometerRange >= 2, accelerometerRange <= 16 else { throw ValidationError("--range must lie in 2…16 g, got \(accelerometerRange)") }
        if shippedStages, !train { throw ValidationError("--shipped-stages needs --train") }
        if negatives != nil, !(train && evaluationProtocol == "online") { throw ValidationError("--negatives needs --protocol online and --train") }
        if foldSeed != 0, !(train && evaluationProtocol == "online") { throw ValidationError("--fold-seed needs --protocol online and --train") }
        // The stress tests' own checks give the ranges.
        do {
            if let soften {
                guard evaluationProtocol == "online" else { throw ValidationError("--soften needs --protocol online") }
                _ = try FallSoftening(scale: soften)
            }
            if let slow {
                guard evaluationProtocol == "online" else { throw ValidationError("--slow needs --protocol online") }
                guard soften == nil else { throw ValidationError("--slow and --soften are separate stress tests; give one") }
                _ = try FallSlowing(factor: slow)
            }
        } catch let error as FallDetectError {
            throw ValidationError("--\(error.field ?? "soften") \(error.message)")
        }
    }

    func features() throws -> [SisFallFeature] {
        if detector.lowercased() == "all" { return SisFallFeature.allCases }
        guard let feature = SisFallFeature(rawValue: detector.lowercased()) else {
            throw ValidationError("--detector must be c2, c3, c8, c9, c13 or all, got '\(detector)'")
        }
        return [feature]
    }

    /// One copy of this command per dataset, each with its own root and description and no
    /// report of its own: the run over all of them writes one.
    func each() -> [BenchCommand] {
        var csv = descriptions.makeIterator()
        return zip(datasets, roots).map { name, root in
            var copy = self
            copy.datasets = [name]
            copy.roots = [root]
            copy.descriptions = name == "csv" ? [csv.next()].compactMap { $0 } : []
            copy.reportDirectory = nil
            return copy
        }
    }

    func run() throws {
        let out = Terminal.standardOutput
        let err = Terminal.standardError
        if !i2cChips.isEmpty { return try runI2C() }
        if let keychainPresses { return try runKeychain(presses: keychainPresses) }
        if runsSeveral { return try runSeveral() }
        if dataset == "hapt" { return try runContinuous() }
        if dataset == "csv" { return try runDescribed() }
        if evaluationProtocol == "online" { return try runOnline() }
        let features = try features()
        let clock = ContinuousClock()
        let started = clock.now
        let scoring: SisFallScoring
        var results: [TrialProtocolResult] = []
        do {
            let data = try SisFallDataset(root: root)
            guard !data.entries.isEmpty else { throw FallDetectError(.noData, "no SisFall trials found", path: data.rawDirectory) }
            scoring = try SisFallScoring(dataset: data, features: features, cache: trialCache())
            for notice in scoring.notices { err.write("note: \(notice)\n") }
            for feature in features {
                results.append(try TrialProtocol.evaluate(scoring.scoredTrials(feature), folds: folds))
            }
        } catch let error as FallDetectError {
            err.write("detectord bench: \(error)\n")
            throw ExitCode(error.code == .invalidArgument ? 64 : 66)
        }
        let wall = Self.seconds(started.duration(to: clock.now))

        out.write(Self.table(scoring: scoring, results: results, folds: folds, root: root, wallSeconds: wall))
        try writeJSON(Self.report(scoring: scoring, results: results, root: root, wallSeconds: wall))
        if let plot {
            let curves = zip(scoring.features, results).map { feature, result in
                BenchPlot.Curve(
                    name: feature.name, points: Self.trialSweep(scoring.scoredTrials(feature)),
                    operatingPoint: OperatingPoint(
                        threshold: result.thresholds.reduce(0, +) / Float(max(1, result.thresholds.count)),
                        sensitivity: result.pooled.sensitivity ?? 0, specificity: result.pooled.specificity ?? 0,
                        falseAlarmsPerHour: Double(result.pooled.falseAlarms) / max(Self.adlHours(scoring), 1e-9)),
                    perActivity: result.perActivity)
            }
            let title = "SisFall trial protocol, \(Set(scoring.rows.map(\.name.subject)).count) subjects, \(folds)-fold by subject"
            try writePlot(BenchPlot(title: title, curves: curves).svg, to: plot)
        }
    }

    /// One decision per trial at 100 thresholds spread over the scores' quantiles: the feature's ROC
    /// curve over all trials (false alarms per hour here count flagged ADL trials).
    static func trialSweep(_ trials: [ScoredTrial]) -> [OperatingPoint] {
        let scores = trials.map(\.score).filter(\.isFinite).sorted()
        guard !scores.isEmpty else { return [] }
        return (0...100).map { q in
            let t = scores[min(scores.count - 1, q * (scores.count - 1) / 100)]
            var c = ConfusionCounts()
            for trial in trials { c.add(isFall: trial.isFall, flagged: trial.score >= t) }
            return OperatingPoint(threshold: t, sensitivity: c.sensitivity ?? 0, specificity: c.specificity ?? 0, falseAlarmsPerHour: 0)
        }
    }

    /// The parsed-trial cache, or nil (with a note) when its folder cannot be made.
    func trialCache() -> TrialCache? {
        let cacheDirectory = (cache ?? ReplayCatalog.defaultCacheDirectory()) + "/sisfall"
        do { return try TrialCache(directory: cacheDirectory) } catch {
            Terminal.standardError.write("note: \(error); parsing text every time\n")
            return nil
        }
    }

    func writeJSON(_ object: [String: Any]) throws {
        guard let json else { return }
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: json))
        } catch {
            Terminal.standardError.write("detectord bench: \(json): cannot write: \(error.localizedDescription)\n")
            throw ExitCode(73)
        }
    }

    // MARK: - Output

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func percent(_ value: Double?) -> String {
        value.map { ProgressLine.fixed($0 * 100, 2) } ?? "-"
    }

    /// "98.31–99.55", or "-" without an interval.
    static func percentRange(_ range: ClosedRange<Double>?) -> String {
        range.map { "\(percent($0.lowerBound))–\(percent($0.upperBound))" } ?? "-"
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// Hours of ADL trials, of one age group when given.
    static func adlHours(_ scoring: SisFallScoring, group: SisFallTrialName.Group? = nil) -> Double {
        let adlSamples = scoring.rows.reduce(0) { $0 + ($1.name.isFall || (group != nil && $1.name.group != group) ? 0 : $1.samples) }
        return Double(adlSamples) / scoring.parameters.sampleRateHertz / 3600
    }

    static func table(scoring: SisFallScoring, results: [TrialProtocolResult], folds: Int, root: String, wallSeconds: Double) -> String {
        let falls = scoring.rows.reduce(0) { $0 + ($1.name.isFall ? 1 : 0) }
        let subjects = Set(scoring.rows.map(\.name.subject)).count
        var text = "SisFall at \(root): \(scoring.rows.count) trials (\(falls) falls, \(scoring.rows.count - falls) ADL, "
            + "\(ProgressLine.fixed(adlHours(scoring), 2)) h of ADL), \(subjects) subjects; trial protocol, \(folds) folds by subject\n"
        let header = ["detector", "SE %", "SP %", "AC %", "fold AC % (mean ± std)", "threshold", "young SE/SP/AC %", "elderly SE/SP %", "paper AC %"]
        var lines: [[String]] = [header]
        for (feature, result) in zip(scoring.features, results) {
            let summary = result.foldBalancedAccuracySummary
            let meanThreshold = result.thresholds.reduce(0) { $0 + Double($1) } / Double(max(1, result.thresholds.count))
            let young = result.byGroup[.young] ?? ConfusionCounts()
            let elderly = result.byGroup[.elderly] ?? ConfusionCounts()
            let paper = feature.publishedBalancedAccuracy
            lines.append([
                feature.name, percent(result.pooled.sensitivity), percent(result.pooled.specificity),
                percent(result.pooled.balancedAccuracy),
                summary.map { "\(ProgressLine.fixed($0.mean * 100, 2)) ± \(ProgressLine.fixed($0.std * 100, 2))" } ?? "-",
                "\(ProgressLine.fixed(meanThreshold, 3)) \(feature.unit)",
                "\(percent(young.sensitivity))/\(percent(young.specificity))/\(percent(young.balancedAccuracy))",
                "\(percent(elderly.sensitivity))/\(percent(elderly.specificity))",
                "\(ProgressLine.fixed(paper.mean, 2)) ± \(ProgressLine.fixed(paper.std, 2))",
            ])
        }
        text += columns(lines)
        for (feature, result) in zip(scoring.features, results) {
            text += "\(feature.name): \(activitySummary(result.perActivity))\n"
        }
        let samples = scoring.samples
        let compute = scoring.computeSeconds.reduce(0, +)
        text += "\(samples) samples × \(scoring.features.count) feature\(scoring.features.count == 1 ? "" : "s") in "
            + "\(ProgressLine.fixed(compute, 2)) s of compute (\(ProgressLine.rate(compute > 0 ? Double(samples * scoring.features.count) / compute : 0)) samples/s per core); "
            + "wall \(ProgressLine.fixed(wallSeconds, 2)) s including loading\n"
        return text
    }

    /// Rows as aligned columns; the last column is not padded, so lines carry no trailing spaces.
    static func columns(_ lines: [[String]]) -> String {
        var widths = [Int](repeating: 0, count: lines.first?.count ?? 0)
        for line in lines { for (i, cell) in line.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        return lines.map { line in
            line.enumerated().map { $0 == line.count - 1 ? $1 : padded($1, widths[$0]) }.joined(separator: "  ") + "\n"
        }.joined()
    }

    /// "ADL that trigger: D04 5/26, …; falls missed: F11 8/90, …".
    static func activitySummary(_ perActivity: [String: ConfusionCounts]) -> String {
        let codes = perActivity.keys.sorted()
        let alarms = codes.compactMap { code in perActivity[code].flatMap { $0.falseAlarms > 0 ? "\(code) \($0.falseAlarms)/\($0.adls)" : nil } }
        let missed = codes.compactMap { code in perActivity[code].flatMap { $0.fallsMissed > 0 ? "\(code) \($0.fallsMissed)/\($0.falls)" : nil } }
        return "ADL that trigger: \(alarms.isEmpty ? "none" : alarms.joined(separator: ", "))"
            + "; falls missed: \(missed.isEmpty ? "none" : missed.joined(separator: ", "))"
    }

    static func json(_ value: Double?) -> Any { value.map { $0 as Any } ?? NSNull() }
    /// [lower, upper], or null.
    static func json(_ range: ClosedRange<Double>?) -> Any { range.map { [$0.lowerBound, $0.upperBound] as Any } ?? NSNull() }

    /// The metrics of one set of trial decisions. Under the trial protocol a false alarm is a
    /// flagged ADL trial, so false alarms per hour count those over the hours of ADL; a decision
    /// comes after the whole trial, so there is no latency (null).
    static func counts(_ c: ConfusionCounts, adlHours: Double) -> [String: Any] {
        [
            "trials": c.trials, "falls": c.falls, "adls": c.adls,
            "sensitivity": json(c.sensitivity), "specificity": json(c.specificity),
            "balanced_accuracy": json(c.balancedAccuracy),
            "false_alarms_per_hour": json(adlHours > 0 ? Double(c.falseAlarms) / adlHours : nil),
            "latency_ms": ["median": NSNull(), "p95": NSNull()],
        ]
    }

    static func report(scoring: SisFallScoring, results: [TrialProtocolResult], root: String, wallSeconds: Double) -> [String: Any] {
        let falls = scoring.rows.reduce(0) { $0 + ($1.name.isFall ? 1 : 0) }
        var detectors: [[String: Any]] = []
        for (k, (feature, result)) in zip(scoring.features, results).enumerated() {
            var perActivity: [String: Any] = [:]
            for (code, c) in result.perActivity {
                perActivity[code] = ["trials": c.trials, "triggers": c.triggered, "missed": c.fallsMissed, "false_alarms": c.falseAlarms]
            }
            let seconds = scoring.computeSeconds[k]
            let summary = result.foldBalancedAccuracySummary
            detectors.append([
                "name": feature.name, "feature": feature.summary, "unit": feature.unit, "protocol": "trial",
                "sensitivity": json(result.pooled.sensitivity), "specificity": json(result.pooled.specificity),
                "balanced_accuracy": json(result.pooled.balancedAccuracy),
                "folds": result.folds.count,
                "fold_balanced_accuracy": result.foldBalancedAccuracy.map { json($0) },
                "fold_balanced_accuracy_mean": json(summary?.mean), "fold_balanced_accuracy_std": json(summary?.std),
                "thresholds": result.thresholds.map { Double($0) },
                "fold_subjects": (0..<result.folds.count).map { result.folds.members(of: $0) },
                "false_alarms_per_hour": json(adlHours(scoring) > 0 ? Double(result.pooled.falseAlarms) / adlHours(scoring) : nil),
                "latency_ms": ["median": NSNull(), "p95": NSNull()],
                "by_group": [
                    "young": counts(result.byGroup[.young] ?? ConfusionCounts(), adlHours: adlHours(scoring, group: .young)),
                    "elderly": counts(result.byGroup[.elderly] ?? ConfusionCounts(), adlHours: adlHours(scoring, group: .elderly)),
                ],
                "per_activity": perActivity,
                "paper_balanced_accuracy": ["mean": feature.publishedBalancedAccuracy.mean / 100, "std": feature.publishedBalancedAccuracy.std / 100],
                "samples": scoring.samples, "seconds": seconds,
                "samples_per_second": seconds > 0 ? Double(scoring.samples) / seconds : 0,
            ])
        }
        return [
            "dataset": "sisfall", "root": root, "trials": scoring.rows.count, "falls": falls,
            "adls": scoring.rows.count - falls, "adl_hours": adlHours(scoring),
            "subjects": Set(scoring.rows.map(\.name.subject)).count,
            "parameters": [
                "cutoff_hz": scoring.parameters.cutoffHertz, "sample_rate_hz": scoring.parameters.sampleRateHertz,
                "window_s": scoring.parameters.windowSeconds,
            ],
            "wall_seconds": wallSeconds,
            "detectors": detectors,
        ]
    }
}

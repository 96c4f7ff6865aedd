import ArgumentParser
import FallDetect

/// `detectord bench --protocol online --detector external --external-command CMD`: a detector in
/// another process, run over the same trials as the built-ins (stress tests and rate included),
/// its threshold fitted as C8's is (on all trials, or per fold with --train) unless it brings its
/// own, and reported in the same table and JSON.
extension BenchCommand {
    static let externalName = "external"

    /// What the external detector adds to the run: its result, its ROC sweep, a line for the
    /// table and fields for its JSON entry.
    struct ExternalOutcome {
        var result: OnlineProtocolResult
        var sweep: [OperatingPoint]
        var note: String
        var json: [String: Any]
    }

    func validateExternal() throws {
        guard let command = external.command else {
            if detector.lowercased() == Self.externalName { throw ValidationError("--detector external needs --external-command") }
            return
        }
        guard evaluationProtocol == "online" else { throw ValidationError("--external-command needs --protocol online") }
        guard ["all", Self.externalName].contains(detector.lowercased()) else {
            throw ValidationError("--external-command needs --detector external (or all)")
        }
        guard !command.allSatisfy(\.isWhitespace) else { throw ValidationError("--external-command is empty") }
        guard external.timeout.isFinite, external.timeout > 0 else { throw ValidationError("--external-timeout must be positive") }
        guard (1...100_000).contains(external.batch) else { throw ValidationError("--external-batch must lie in 1…100000") }
        guard (1...256).contains(external.jobs) else { throw ValidationError("--external-jobs must lie in 1…256") }
    }

    func runExternal(data: SisFallDataset, scan: OnlineScan, stressed: OnlineScan?) throws(FallDetectError) -> ExternalOutcome {
        guard let command = external.command else {
            throw FallDetectError(.invalidArgument, "--detector external needs --external-command", field: "external-command")
        }
        let jobs = external.jobs
        Terminal.standardError.write(
            "running \(command) over \(scan.trials.count) trials\(jobs > 1 ? " in \(jobs) processes" : "")\(stressed != nil ? ", then the stressed ones" : "")\n")
        let (timeout, batch) = (external.timeout, external.batch)
        let make: @Sendable () throws(FallDetectError) -> ExternalDetector = { () throws(FallDetectError) in
            try ExternalDetector(command: command, timeout: timeout, batch: batch)
        }
        let close: @Sendable (inout ExternalDetector) throws(FallDetectError) -> Void = { detector throws(FallDetectError) in try detector.close() }
        let fitted = try SampleDetectorRun.run(
            jobs: jobs, making: make, closing: close, on: scan.trials, dataset: data, decimation: scan.decimation, cache: trialCache())
        var tested: (trials: [OnlineTrial], tracks: DetectorTracks)?
        if let stressed {
            let tracks = try SampleDetectorRun.run(
                jobs: jobs, making: make, closing: close, on: stressed.trials, dataset: data, decimation: stressed.decimation,
                softening: stressed.softening, slowing: stressed.slowing, cache: trialCache())
            tested = (stressed.trials, tracks)
        }
        var result = train
            ? try fitted.crossValidate(scan.trials, folds: folds, tested: tested, foldSeed: foldSeed)
            : fitted.evaluateFitted(scan.trials, tested: tested)
        let name = fitted.detector == Self.externalName ? fitted.detector : "\(Self.externalName):\(fitted.detector)"
        result.detector = name
        let sweep = (tested?.tracks ?? fitted).sweep(tested?.trials ?? scan.trials)
        let run = tested?.tracks ?? fitted
        let samples = fitted.samples + (tested?.tracks.samples ?? 0)
        let seconds = fitted.computeSeconds + (tested?.tracks.computeSeconds ?? 0)
        let how: String
        switch fitted.threshold {
        case .none: how = "its own decisions, no threshold"
        case .fixed(let t): how = "its own threshold \(t)"
        case .fitted(let grid): how = "threshold fitted on " + (grid.isEmpty ? "quantiles of its scores" : "its grid of \(grid.count)")
        }
        let note = "\(name): `\(command)`, \(run.output.rawValue), \(how); \(samples) samples through it in \(ProgressLine.fixed(seconds, 2)) s\(jobs > 1 ? " summed over \(jobs) processes" : "") "
            + "(\(ProgressLine.rate(seconds > 0 ? Double(samples) / seconds : 0)) samples/s)\n"
        let json: [String: Any] = [
            "external_command": command, "output": run.output.rawValue, "external_samples": samples, "external_seconds": seconds,
            "threshold_fitted": { if case .fitted = fitted.threshold { return true } else { return false } }(),
            "external_jobs": jobs,
        ]
        return ExternalOutcome(result: result, sweep: sweep, note: note, json: json)
    }
}

/// Runs a detection profile over a trial dataset exactly as `detectord run` runs it (the same
/// pipeline as `ContinuousEvaluation`, one trial at a time from a fresh pipeline) and scores the
/// trials as the online protocol does: a fall trial is found when a detection lies in its labelled
/// fall or at most `tolerance` seconds after it; an ADL trial with any detection is a false alarm.
public enum DescribedTrialEvaluation {
    /// `isFall[i]` says whether `trials[i]` is a fall trial; a fall trial's fall is its first
    /// fall span.
    public static func evaluate(
        _ trials: [LabelledRecording], isFall: [Bool], profile: DetectionProfile, fallModel: FallModelFile? = nil,
        tolerance: Double = OnlineProtocol.defaultTolerance, workers: Int? = nil
    ) throws(FallDetectError) -> DescribedTrialResult {
        guard isFall.count == trials.count else {
            throw FallDetectError(.invalidArgument, "\(isFall.count) fall flags for \(trials.count) trials", field: "isFall")
        }
        let outcomes = try ContinuousEvaluation.outcomes(trials, profile: profile, fallModel: fallModel, tolerance: tolerance, workers: workers)
        var result = DescribedTrialResult(detector: profile.fall?.rawValue ?? "none", profile: profile.name)
        for (k, (trial, outcome)) in zip(trials, outcomes).enumerated() {
            let origin = trial.recording.samples.first?.timestampNanoseconds ?? 0
            if isFall[k], let span = trial.fallSpans.first {
                let hits = outcome.detections.filter { $0.place == .fall }
                result.counts.add(isFall: true, flagged: !hits.isEmpty)
                if let first = hits.first {
                    result.latencies.append(first.seconds - Double(span.lowerBound - origin) / 1e9)
                } else {
                    result.missedFalls.append(trial.name)
                }
                result.strayDetectionsInFalls += outcome.detections.filter { $0.place != .fall }
            } else {
                result.counts.add(isFall: false, flagged: !outcome.detections.isEmpty)
                result.adlHours += Double(trial.recording.samples.count) / trial.recording.info.sensor.sampleRate / 3600
                result.falseAlarms += outcome.detections
                if !outcome.detections.isEmpty { result.falseAlarmTrials.append(trial.name) }
            }
        }
        return result
    }
}

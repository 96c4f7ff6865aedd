/// The SisFall paper's best feature, C8, run online as a threshold detector would run it: a
/// detection each time the feature crosses the threshold upward (20 values a second), through
/// the same one-per-event gate. The figures it gets are the baseline the fall detectors beat.
public enum OnlineBaseline {
    public static let name = "c8"

    /// Thresholds searched and swept, g.
    public static let thresholds: [Float] = (0...260).map { 0.2 + Float($0) * 0.005 }

    public static func detections(in trial: OnlineTrial, threshold: Float, gate: DetectionGate = DetectionGate()) -> [Int64] {
        var gate = gate
        var times: [Int64] = []
        var below = true
        for point in trial.baseline {
            if point.value >= threshold {
                if below, gate.admit(point.timestamp) { times.append(point.timestamp) }
                below = false
            } else {
                below = true
            }
        }
        return times
    }

    public static func evaluate(_ trials: [OnlineTrial], threshold: Float, tolerance: Double = OnlineProtocol.defaultTolerance) -> OnlineProtocolResult {
        OnlineProtocol.evaluate(
            detector: name, trials: trials, detections: trials.map { detections(in: $0, threshold: threshold) }, threshold: threshold,
            tolerance: tolerance)
    }

    /// The threshold of `thresholds` (not empty, ascending) with the best (SE + SP) / 2 on
    /// `trials`, the lowest among equals. Another grid serves any series judged like C8's
    /// (`DetectorTracks`).
    public static func bestThreshold(
        _ trials: [OnlineTrial], thresholds: [Float] = OnlineBaseline.thresholds, tolerance: Double = OnlineProtocol.defaultTolerance
    ) -> Float {
        let gate = DetectionGate()
        // An ADL trial is flagged when its maximum reaches the threshold. A fall trial shorter than
        // the gate is detected when its first crossing lands in its window (no later one can pass
        // the gate), and a running maximum finds that crossing by bisection.
        let short = trials.allSatisfy { t in
            guard t.name.isFall, let first = t.baseline.first, let last = t.baseline.last else { return true }
            return Double(last.timestamp - first.timestamp) < gate.refractorySeconds * 1e9
        }
        var best = (accuracy: -1.0, threshold: thresholds[0])
        guard short else {
            for t in thresholds {
                let accuracy = evaluate(trials, threshold: t, tolerance: tolerance).counts.balancedAccuracy ?? 0
                if accuracy > best.accuracy { best = (accuracy, t) }
            }
            return best.threshold
        }
        let running = trials.map { trial -> [Float] in
            var m = -Float.infinity
            return trial.baseline.map { m = max(m, $0.value); return m }
        }
        let falls = trials.reduce(0) { $0 + ($1.name.isFall ? 1 : 0) }
        let adls = trials.count - falls
        for t in thresholds {
            var detected = 0, flagged = 0
            for (trial, peaks) in zip(trials, running) {
                guard let top = peaks.last, top >= t else { continue }
                if !trial.name.isFall {
                    flagged += 1
                    continue
                }
                var lo = 0, hi = peaks.count - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if peaks[mid] >= t { hi = mid } else { lo = mid + 1 }
                }
                if trial.isInFallWindow(trial.baseline[lo].timestamp, tolerance: tolerance) { detected += 1 }
            }
            let accuracy = (falls > 0 ? Double(detected) / Double(falls) : 0) / 2 + (adls > 0 ? Double(adls - flagged) / Double(adls) : 0) / 2
            if accuracy > best.accuracy { best = (accuracy, t) }
        }
        return best.threshold
    }

    /// Each fold tested at the threshold that was best on the other folds' subjects. `tested`,
    /// when given, holds the trials each fold is tested on instead (the same trials in the same
    /// order, e.g. with softened falls); the threshold is still fitted on `trials`.
    public static func crossValidate(
        _ trials: [OnlineTrial], folds count: Int, tested: [OnlineTrial]? = nil, tolerance: Double = OnlineProtocol.defaultTolerance,
        foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> OnlineProtocolResult {
        let tested = try OnlineCrossValidation.matching(tested, trials)
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count, seed: foldSeed)
        var merged: OnlineProtocolResult?
        var sum: Float = 0
        for k in 0..<count {
            let training = trials.filter { folds.fold(of: $0.name.subject) != k }
            let threshold = bestThreshold(training, tolerance: tolerance)
            sum += threshold
            let result = evaluate(tested.filter { folds.fold(of: $0.name.subject) == k }, threshold: threshold, tolerance: tolerance)
            if merged == nil { merged = result } else { merged?.merge(result) }
        }
        guard var merged else { throw FallDetectError(.noData, "no folds", field: "folds") }
        merged.threshold = sum / Float(count)
        return merged
    }

    public static func sweep(_ trials: [OnlineTrial], tolerance: Double = OnlineProtocol.defaultTolerance) -> [OperatingPoint] {
        thresholds.map { t in
            OperatingPoint(evaluate(trials, threshold: t, tolerance: tolerance))
        }
    }
}

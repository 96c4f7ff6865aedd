/// A `SampleDetector`'s outputs over a list of trials (parallel to it), and the online protocol
/// over them: detections at a threshold through the one-per-event gate, the threshold fitted as
/// the bench fits C8's (on all trials, or per fold by subject), and the ROC sweep. Levels are
/// judged exactly as `OnlineBaseline` judges C8's series, so a detector that reproduces that
/// series reproduces C8's figures.
public struct DetectorTracks: Sendable {
    public var detector: String
    public var output: SampleDetectorOutput
    public var threshold: DetectorThreshold
    /// Per trial, its outputs in time order.
    public var tracks: [[SampleDetection]]
    /// Samples given to the detector, and the seconds it took them (including its process's
    /// answers for an external one), summed over trials.
    public var samples: Int
    public var computeSeconds: Double

    public init(
        detector: String, output: SampleDetectorOutput, threshold: DetectorThreshold, tracks: [[SampleDetection]], samples: Int = 0,
        computeSeconds: Double = 0
    ) {
        self.detector = detector
        self.output = output
        self.threshold = threshold
        self.tracks = tracks
        self.samples = samples
        self.computeSeconds = computeSeconds
    }

    /// The thresholds fitting chooses among: the detector's grid, or up to 101 quantiles of its
    /// scores; empty when nothing is fitted.
    public var grid: [Float] {
        guard case .fitted(let grid) = threshold else { return [] }
        if !grid.isEmpty { return grid }
        let scores = tracks.flatMap { $0.compactMap(\.score) }.sorted()
        guard !scores.isEmpty else { return [] }
        var quantiles: [Float] = []
        for q in 0...100 {
            let v = scores[q * (scores.count - 1) / 100]
            if quantiles.last != v { quantiles.append(v) }
        }
        return quantiles
    }

    /// The threshold used without fitting: the detector's own, or none.
    var ownThreshold: Float {
        if case .fixed(let t) = threshold { return t }
        return -.infinity
    }

    /// `trials` with track `k` as their C8-style series, for `OnlineBaseline`.
    func asLevels(_ trials: [OnlineTrial], indices: [Int]) -> [OnlineTrial] {
        indices.map { k in
            var t = trials[k]
            t.baseline = tracks[k].map { ($0.timestampNanoseconds, $0.score ?? -.infinity) }
            return t
        }
    }

    /// The detections of trial `k` at `threshold`, through the gate.
    public func detections(_ k: Int, threshold: Float, gate: DetectionGate = DetectionGate()) -> [Int64] {
        var gate = gate
        var times: [Int64] = []
        var below = true
        for d in tracks[k] {
            let reached = (d.score ?? .infinity) >= threshold
            // Levels detect on crossing upward (as OnlineBaseline.detections); decisions each time.
            if reached, output == .detections || below, gate.admit(d.timestampNanoseconds) { times.append(d.timestampNanoseconds) }
            below = !reached
        }
        return times
    }

    /// The protocol on `trials[indices]` at `threshold` (every trial when `indices` is nil).
    public func evaluate(
        _ trials: [OnlineTrial], threshold: Float, indices: [Int]? = nil, tolerance: Double = OnlineProtocol.defaultTolerance
    ) -> OnlineProtocolResult {
        let indices = indices ?? Array(trials.indices)
        return OnlineProtocol.evaluate(
            detector: detector, trials: indices.map { trials[$0] }, detections: indices.map { detections($0, threshold: threshold) },
            threshold: threshold.isFinite ? threshold : 0, tolerance: tolerance)
    }

    /// The grid's threshold with the best (SE + SP) / 2 on `trials[indices]`, the lowest among
    /// equals; the detector's own when nothing is fitted.
    public func bestThreshold(_ trials: [OnlineTrial], indices: [Int]? = nil, tolerance: Double = OnlineProtocol.defaultTolerance) -> Float {
        let grid = grid
        guard !grid.isEmpty else { return ownThreshold }
        let indices = indices ?? Array(trials.indices)
        if output == .levels {
            // C8's own search (its shortcut for short falls included): the same choice to the bit.
            return OnlineBaseline.bestThreshold(asLevels(trials, indices: indices), thresholds: grid, tolerance: tolerance)
        }
        var best = (accuracy: -1.0, threshold: grid[0])
        for t in grid {
            let accuracy = evaluate(trials, threshold: t, indices: indices, tolerance: tolerance).counts.balancedAccuracy ?? 0
            if accuracy > best.accuracy { best = (accuracy, t) }
        }
        return best.threshold
    }

    /// The detector at a threshold fitted on all of `trials` (its own threshold when it has one),
    /// tested on `tested` (the same trials, e.g. with softened falls, and their tracks).
    public func evaluateFitted(
        _ trials: [OnlineTrial], tested: (trials: [OnlineTrial], tracks: DetectorTracks)? = nil,
        tolerance: Double = OnlineProtocol.defaultTolerance
    ) -> OnlineProtocolResult {
        let threshold = bestThreshold(trials, tolerance: tolerance)
        let (testTrials, testTracks) = tested ?? (trials, self)
        return testTracks.evaluate(testTrials, threshold: threshold, tolerance: tolerance)
    }

    /// Each fold tested at the threshold best on the other folds' subjects, as
    /// `OnlineBaseline.crossValidate` does for C8.
    public func crossValidate(
        _ trials: [OnlineTrial], folds count: Int, tested: (trials: [OnlineTrial], tracks: DetectorTracks)? = nil,
        tolerance: Double = OnlineProtocol.defaultTolerance, foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> OnlineProtocolResult {
        let (testTrials, testTracks) = tested ?? (trials, self)
        let matched = try OnlineCrossValidation.matching(testTrials, trials)
        guard tracks.count == trials.count, testTracks.tracks.count == matched.count else {
            throw FallDetectError(.invalidArgument, "tracks and trials differ in count", field: "tracks")
        }
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count, seed: foldSeed)
        var merged: OnlineProtocolResult?
        var sum: Float = 0
        for k in 0..<count {
            let inFold = trials.indices.filter { folds.fold(of: trials[$0].name.subject) == k }
            let training = trials.indices.filter { folds.fold(of: trials[$0].name.subject) != k }
            let threshold = bestThreshold(trials, indices: training, tolerance: tolerance)
            sum += threshold.isFinite ? threshold : 0
            let result = testTracks.evaluate(matched, threshold: threshold, indices: inFold, tolerance: tolerance)
            if merged == nil { merged = result } else { merged?.merge(result) }
        }
        guard var merged else { throw FallDetectError(.noData, "no folds", field: "folds") }
        merged.threshold = sum / Float(count)
        return merged
    }

    /// Operating points over the grid (the ROC curve); empty when nothing is fitted.
    public func sweep(_ trials: [OnlineTrial], tolerance: Double = OnlineProtocol.defaultTolerance) -> [OperatingPoint] {
        grid.map { OperatingPoint(evaluate(trials, threshold: $0, tolerance: tolerance)) }
    }
}

/// The online protocol: a detector runs through each trial as the daemon would (candidates in
/// time order, the judge, the one-per-event gate) and every detection is checked against the
/// labels. A detection inside the labelled FALL span, or at most `tolerance` seconds after it,
/// detects the fall. A detection in an ADL trial is a false alarm; one in a fall trial away from
/// its fall is counted apart (`strayDetectionsInFalls`), and only ADL trials' time makes the
/// hours of false alarms per hour. Trials are whole recordings, so the gate starts open in each.
public enum OnlineProtocol {
    /// Seconds after the labelled FALL span within which a detection still counts for the fall:
    /// the span ends at the impact, and the posture after it takes a moment to show.
    public static let defaultTolerance: Double = 2

    /// Extra seconds a confirmed detection may land after the fall window: the bench's
    /// confirmation window.
    public static let confirmationAllowance = Double(OnlineScan.benchConfirmation.windowSeconds)

    /// Each trial's candidate scores under `judge`.
    public static func scores(of judge: some FallJudge, in trials: [OnlineTrial]) -> [[Float]] {
        trials.map { $0.candidates.map(judge.score) }
    }

    /// Times of the detections in `trial` whose candidates scored `scores`, at `threshold`. With
    /// `confirmed`, a detection also needs the stillness confirmation and happens when it comes.
    /// With `recovery` (an index into `RecoveryParameters.grid`), a detection stays at its time
    /// unless the wearer got up under that setting: then it is withdrawn, and the gate opens again
    /// from then on, since a new fall after getting up is a new event.
    public static func detections(
        in trial: OnlineTrial, scores: [Float], threshold: Float, confirmed: Bool = false, recovery: Int? = nil,
        gate: DetectionGate = DetectionGate()
    ) -> [Int64] {
        detectionTimes(in: trial, scores: scores, threshold: threshold, confirmed: confirmed, recovery: recovery, gate: gate).map(\.alert)
    }

    /// As `detections`, each with the time its candidate was decided: the same for a detection
    /// that needs no confirmation, earlier for one that waits for stillness.
    public static func detectionTimes(
        in trial: OnlineTrial, scores: [Float], threshold: Float, confirmed: Bool = false, recovery: Int? = nil,
        gate: DetectionGate = DetectionGate()
    ) -> [(alert: Int64, decided: Int64)] {
        var gate = gate
        var times: [(alert: Int64, decided: Int64)] = []
        var withdrawnUntil: Int64?
        for (i, candidate) in trial.candidates.enumerated() where scores[i] >= threshold {
            var time = candidate.decisionNanoseconds
            if let until = withdrawnUntil, time >= until {
                gate.reset()
                withdrawnUntil = nil
            }
            if confirmed {
                guard let at = trial.confirmations[i] else { continue }
                time = at
            }
            guard gate.admit(candidate.decisionNanoseconds) else { continue }
            if let recovery, let upAgain = trial.recoveries[i][recovery] {
                withdrawnUntil = upAgain
                continue
            }
            times.append((time, candidate.decisionNanoseconds))
        }
        return times
    }

    public static func evaluate(
        _ judge: some FallJudge, on trials: [OnlineTrial], tolerance: Double = defaultTolerance, gate: DetectionGate = DetectionGate()
    ) -> OnlineProtocolResult {
        evaluate(detector: judge.name, trials: trials, scores: scores(of: judge, in: trials), threshold: judge.threshold, tolerance: tolerance, gate: gate)
    }

    /// The protocol over precomputed scores (one list per trial, one score per candidate).
    public static func evaluate(
        detector: String, trials: [OnlineTrial], scores: [[Float]], threshold: Float, confirmed: Bool = false, recovery: Int? = nil,
        tolerance: Double = defaultTolerance, gate: DetectionGate = DetectionGate()
    ) -> OnlineProtocolResult {
        let times = zip(trials, scores).map {
            detectionTimes(in: $0, scores: $1, threshold: threshold, confirmed: confirmed, recovery: recovery, gate: gate)
        }
        // A confirmed detection comes after the stillness: its window stretches by that wait.
        return evaluate(
            detector: detector, trials: trials, detections: times.map { $0.map(\.alert) }, decisions: times.map { $0.map(\.decided) },
            threshold: threshold, tolerance: confirmed ? tolerance + confirmationAllowance : tolerance)
    }

    /// The protocol over each trial's detection times, however the detector made them, and when
    /// each was decided (`decisions`, parallel to `detections`; the same times when nil).
    public static func evaluate(
        detector: String, trials: [OnlineTrial], detections: [[Int64]], decisions: [[Int64]]? = nil, threshold: Float,
        tolerance: Double = defaultTolerance
    ) -> OnlineProtocolResult {
        var result = OnlineProtocolResult(
            detector: detector, threshold: threshold, counts: ConfusionCounts(), falseAlarms: 0, strayDetectionsInFalls: 0,
            adlHours: 0, latencies: [], byGroup: [:], perActivity: [:])
        for (t, (trial, times)) in zip(trials, detections).enumerated() {
            // This trial's outcome, added to the totals, its group and its subject alike.
            var one = OnlineProtocolResult.GroupResult()
            if trial.name.isFall {
                let hits = times.indices.filter { trial.isInFallWindow(times[$0], tolerance: tolerance) }
                let detected = !hits.isEmpty
                result.strayDetectionsInFalls += times.count - hits.count
                if let first = hits.first, let onset = trial.fallSpan?.lowerBound {
                    one.latencies.append(Double(times[first] - onset) / 1e9)
                    result.detectionLatencies.append(Double((decisions?[t][first] ?? times[first]) - onset) / 1e9)
                }
                if !detected { result.missedFalls.append(trial.name) }
                one.counts.add(isFall: true, flagged: detected)
            } else {
                one.falseAlarms = times.count
                one.adlHours = trial.seconds / 3600
                if !times.isEmpty { result.falseAlarmTrials.append(trial.name) }
                result.falseAlarmDetections += times.map { TrialDetection(trial: trial.name, seconds: Double($0) / 1e9) }
                one.counts.add(isFall: false, flagged: !times.isEmpty)
            }
            result.counts.merge(one.counts)
            result.falseAlarms += one.falseAlarms
            result.adlHours += one.adlHours
            result.latencies += one.latencies
            result.byGroup[trial.name.group, default: OnlineProtocolResult.GroupResult()].merge(one)
            result.bySubject[trial.name.subject, default: OnlineProtocolResult.GroupResult()].merge(one)
            result.perActivity[trial.name.activityCode, default: ConfusionCounts()].merge(one.counts)
        }
        return result
    }

    /// The detector's operating points at each of `thresholds`: its ROC curve and false alarms.
    public static func sweep(
        trials: [OnlineTrial], scores: [[Float]], thresholds: [Float], confirmed: Bool = false, recovery: Int? = nil,
        tolerance: Double = defaultTolerance
    ) -> [OperatingPoint] {
        thresholds.map { t in
            OperatingPoint(
                evaluate(detector: "", trials: trials, scores: scores, threshold: t, confirmed: confirmed, recovery: recovery, tolerance: tolerance))
        }
    }

    /// Candidate labels for training: true for a fall trial's candidates whose decision lands in
    /// its fall window, false for every other candidate (ADL, and a fall trial's other impacts).
    public static func trainingRows(_ trials: [OnlineTrial], tolerance: Double = defaultTolerance) -> (rows: [FallFeatureVector], labels: [Bool]) {
        var rows: [FallFeatureVector] = []
        var labels: [Bool] = []
        for trial in trials {
            for c in trial.candidates {
                rows.append(c.features)
                labels.append(trial.isInFallWindow(c.decisionNanoseconds, tolerance: tolerance))
            }
        }
        return (rows, labels)
    }
}

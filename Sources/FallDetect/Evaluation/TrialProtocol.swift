/// The SisFall paper's per-trial protocol: one decision per trial (score ≥ threshold → fall),
/// the threshold chosen on the training folds as the one that maximises AC = (SE + SP) / 2 there
/// (the paper's T1), k-fold cross-validation split by subject (`SubjectFolds`).
public enum TrialProtocol {
    /// Cross-validates a threshold on `trials` (one detector's scores) over `folds` folds by subject.
    /// Throws `.noData` when a training set lacks falls or ADL, `.invalidArgument` for bad folds.
    public static func evaluate(_ trials: [ScoredTrial], folds count: Int) throws(FallDetectError) -> TrialProtocolResult {
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count)
        var byFold = [[ScoredTrial]](repeating: [], count: count)
        for trial in trials {
            // Every subject was given to `SubjectFolds`, so the lookup cannot fail.
            byFold[folds.fold(of: trial.name.subject) ?? 0].append(trial)
        }
        var thresholds: [Float] = []
        var foldCounts: [ConfusionCounts] = []
        var pooled = ConfusionCounts()
        var byGroup: [SisFallTrialName.Group: ConfusionCounts] = [:]
        var perActivity: [String: ConfusionCounts] = [:]
        for k in 0..<count {
            var training: [ScoredTrial] = []
            for j in 0..<count where j != k { training += byFold[j] }
            guard let threshold = bestThreshold(training) else {
                throw FallDetectError(
                    .noData,
                    "fold \(k + 1) of \(count): its training folds need both falls and ADL (subjects held out: "
                        + folds.members(of: k).joined(separator: ", ") + ")", field: "folds")
            }
            thresholds.append(threshold)
            var counts = ConfusionCounts()
            for trial in byFold[k] {
                let flagged = trial.score >= threshold
                counts.add(isFall: trial.isFall, flagged: flagged)
                byGroup[trial.name.group, default: ConfusionCounts()].add(isFall: trial.isFall, flagged: flagged)
                perActivity[trial.name.activityCode, default: ConfusionCounts()].add(isFall: trial.isFall, flagged: flagged)
            }
            foldCounts.append(counts)
            pooled.merge(counts)
        }
        return TrialProtocolResult(
            folds: folds, thresholds: thresholds, foldCounts: foldCounts, pooled: pooled, byGroup: byGroup,
            perActivity: perActivity)
    }

    /// The threshold that maximises AC on `trials` (score ≥ threshold → fall), or nil when they lack
    /// falls or ADL. Candidates are cuts between consecutive distinct scores, placed halfway so a
    /// new trial scoring like a training one is judged like it; among equal AC the lowest threshold
    /// wins (more sensitive, as a fall detector should lean). O(n log n).
    public static func bestThreshold(_ trials: [ScoredTrial]) -> Float? {
        let falls = trials.reduce(0) { $0 + ($1.isFall ? 1 : 0) }
        let adls = trials.count - falls
        guard falls > 0, adls > 0 else { return nil }
        let sorted = trials.sorted { $0.score < $1.score }
        // Cut i flags sorted[i...]; walk i upward, moving one trial at a time below the cut.
        var fallsAbove = falls, adlsAbove = adls
        var best = -Double.infinity
        var bestThreshold = sorted[0].score
        var i = 0
        while i <= sorted.count {
            if i == 0 || i == sorted.count || sorted[i - 1].score < sorted[i].score {
                let ac = (Double(fallsAbove) / Double(falls) + Double(adls - adlsAbove) / Double(adls)) / 2
                if ac > best {
                    best = ac
                    bestThreshold = cut(below: i == 0 ? nil : sorted[i - 1].score, at: i == sorted.count ? nil : sorted[i].score)
                }
            }
            if i == sorted.count { break }
            if sorted[i].isFall { fallsAbove -= 1 } else { adlsAbove -= 1 }
            i += 1
        }
        return bestThreshold
    }

    /// A threshold strictly above `below` and at most `at`.
    static func cut(below: Float?, at: Float?) -> Float {
        switch (below, at) {
        case (nil, let a?): return a
        case (let b?, nil): return b.nextUp
        case (let b?, let a?):
            let mid = b / 2 + a / 2
            return b.isFinite && mid > b && mid <= a ? mid : a
        case (nil, nil): return .infinity
        }
    }
}

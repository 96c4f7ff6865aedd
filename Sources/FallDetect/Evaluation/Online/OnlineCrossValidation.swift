/// Leave-subjects-out evaluation of the fall detectors under the online protocol: each fold's
/// subjects are tested with parameters fitted on the other folds' subjects only, so every figure
/// is on people the detector never saw.
///
/// Every function takes an optional `tested`: the same trials, in the same order, as each fold is
/// tested on them (`FallSoftening`'s softened falls); everything is still fitted on `trials` (and
/// the learned model on its `augmented` copies).
public enum OnlineCrossValidation {
    /// The learned detector: a model trained per fold with `trainer`, judged at `threshold`.
    /// `augmented` are extra training trials (`FallAugmentation`'s softened copies); each fold
    /// trains on those of its training subjects only.
    public static func learned(
        _ trials: [OnlineTrial], folds count: Int, trainer: BoostedTreesTrainer = BoostedTreesTrainer(), threshold: Float,
        augmented: [OnlineTrial] = [], negatives: [NegativeCandidates] = [], tested: [OnlineTrial]? = nil,
        tolerance: Double = OnlineProtocol.defaultTolerance, foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> OnlineCrossValidationResult {
        try crossValidate(trials, folds: count, tested: tested, tolerance: tolerance, foldSeed: foldSeed) { (training: [OnlineTrial]) throws(FallDetectError) -> any FallJudge in
            try LearnedFallJudge(
                model: fallModel(trainedOn: training, augmented: augmented, negatives: negatives, trainer: trainer, tolerance: tolerance).model,
                threshold: threshold)
        }
    }

    /// A fall model trained with `trainer` on the candidates of `trials` and of the `augmented`
    /// copies whose subjects are among them: a copy of a held-out subject's fall must never reach
    /// training. `negatives` (another dataset's people, all non-falls) join as subjects of their
    /// own. With the number of rows and of falls among them.
    public static func fallModel(
        trainedOn trials: [OnlineTrial], augmented: [OnlineTrial] = [], negatives: [NegativeCandidates] = [],
        trainer: BoostedTreesTrainer = BoostedTreesTrainer(), tolerance: Double = OnlineProtocol.defaultTolerance
    ) throws(FallDetectError) -> (model: BoostedTrees, rows: Int, positives: Int) {
        let subjects = Set(trials.map(\.name.subject))
        let used = trials + augmented.filter { subjects.contains($0.name.subject) }
        var data = OnlineProtocol.trainingRows(used, tolerance: tolerance)
        // A bagged trainer leaves out whole subjects, their softened copies with them.
        let number = Dictionary(uniqueKeysWithValues: subjects.sorted().enumerated().map { ($1, $0) })
        var groups = used.flatMap { trial in [Int](repeating: number[trial.name.subject]!, count: trial.candidates.count) }
        for (k, person) in negatives.enumerated() {
            data.rows += person.rows
            data.labels += [Bool](repeating: false, count: person.rows.count)
            groups += [Int](repeating: number.count + k, count: person.rows.count)
        }
        let model = try trainer.train(rows: data.rows, labels: data.labels, featureCount: FallCandidate.featureNames.count, groups: groups)
        return (model, data.rows.count, data.labels.reduce(0) { $0 + ($1 ? 1 : 0) })
    }

    /// Out-of-fold scores for choosing a later stage's setting inside each fold (nested
    /// cross-validation): for fold k, every trial of another fold j scored by a model trained
    /// without folds k and j; fold k's own trials get no scores (empty lists). So the setting
    /// fold k chooses comes from models that never saw its subjects either. One model per pair of
    /// folds serves both (C(K, 2) models); each trains on its subjects' `augmented` copies only.
    public static func nestedScores(
        _ trials: [OnlineTrial], folds count: Int, trainer: BoostedTreesTrainer = BoostedTreesTrainer(), augmented: [OnlineTrial] = [],
        negatives: [NegativeCandidates] = [], tolerance: Double = OnlineProtocol.defaultTolerance, foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> [[[Float]]] {
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count, seed: foldSeed)
        let foldOf = trials.map { folds.fold(of: $0.name.subject) ?? -1 }
        let pairs = (0..<count).flatMap { k in ((k + 1)..<count).map { (k, $0) } }
        let models = try parallelMap(pairs.count) { p throws(FallDetectError) -> BoostedTrees in
            let (a, b) = pairs[p]
            let training = trials.indices.filter { foldOf[$0] != a && foldOf[$0] != b }.map { trials[$0] }
            return try fallModel(trainedOn: training, augmented: augmented, negatives: negatives, trainer: trainer, tolerance: tolerance).model
        }
        var nested = [[[Float]]](repeating: [[Float]](repeating: [], count: trials.count), count: count)
        for (p, (a, b)) in pairs.enumerated() {
            let judge = try LearnedFallJudge(model: models[p], threshold: 0.5)
            for i in trials.indices where foldOf[i] == a || foldOf[i] == b {
                // Fold a's trials, scored without a and b, serve fold b's choice, and the other way round.
                nested[foldOf[i] == a ? b : a][i] = trials[i].candidates.map(judge.score)
            }
        }
        return nested
    }

    /// The multiphase detector: its impact threshold chosen per fold as the one that maximises
    /// (SE + SP) / 2 on the training subjects, the other rules as given.
    public static func multiphase(
        _ trials: [OnlineTrial], folds count: Int, parameters: MultiphaseFallParameters = MultiphaseFallParameters(),
        tested: [OnlineTrial]? = nil, tolerance: Double = OnlineProtocol.defaultTolerance, foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> OnlineCrossValidationResult {
        try crossValidate(trials, folds: count, tested: tested, tolerance: tolerance, foldSeed: foldSeed) { (training: [OnlineTrial]) throws(FallDetectError) -> any FallJudge in
            var judge = try MultiphaseFallJudge(parameters: parameters)
            var best = (accuracy: -1.0, threshold: parameters.minimumImpact)
            for step in 0...40 {
                judge.threshold = 1.5 + Float(step) * 0.1
                let accuracy = OnlineProtocol.evaluate(judge, on: training, tolerance: tolerance).counts.balancedAccuracy ?? 0
                if accuracy > best.accuracy { best = (accuracy, judge.threshold) }
            }
            judge.threshold = best.threshold
            return judge
        }
    }

    /// The learned detector followed by the recovery check: each fold tested with the setting of
    /// `RecoveryParameters.grid`, and the threshold of `thresholds`, chosen on the other folds'
    /// subjects. With a `targetSensitivity`, the choice is the one with the fewest false alarms
    /// among those that reach it (ties: the higher SE), or the most sensitive when none does
    /// (ties: fewer false alarms): a product fixes how many falls it may miss and then wants as
    /// few false alarms as it can get. Without one, the best (SE + SP) / 2 (ties: the higher SE,
    /// then fewer false alarms). Remaining ties go to the earlier entry. A later stage that
    /// withdraws false alarms lets the detector itself run more sensitive, so the two are chosen
    /// together. `scores` are out-of-fold scores (from `learned`), so the choice sees detections
    /// as they are on unseen people; `tested` comes with its own out-of-fold scores. With
    /// `nested` (from `nestedScores`), fold k chooses on `nested[k]` instead, scores from models
    /// that never saw fold k's subjects either; `scores` then only serve the test.
    public static func recovery(
        _ trials: [OnlineTrial], folds count: Int, scores: [[Float]], nested: [[[Float]]]? = nil, thresholds: [Float], confirmed: Bool = false,
        targetSensitivity: Double? = nil, tested: (trials: [OnlineTrial], scores: [[Float]])? = nil, detector: String = "learned+recovery",
        tolerance: Double = OnlineProtocol.defaultTolerance, foldSeed: UInt64 = 0
    ) throws(FallDetectError) -> OnlineCrossValidationResult {
        guard !thresholds.isEmpty else { throw FallDetectError(.invalidArgument, "no thresholds to choose from", field: "thresholds") }
        let testTrials = try matching(tested?.trials, trials), testScores = tested?.scores ?? scores
        guard scores.count == trials.count, testScores.count == trials.count,
            nested.map({ $0.count == count && $0.allSatisfy { $0.count == trials.count } }) ?? true
        else {
            throw FallDetectError(.invalidArgument, "one list of scores per trial (and per fold when nested) is needed", field: "scores")
        }
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count, seed: foldSeed)
        let perFold = try parallelMap(count) { k throws(FallDetectError) -> (pick: (threshold: Float, setting: Int), result: OnlineProtocolResult) in
            let inFold = trials.map { folds.fold(of: $0.name.subject) == k }
            let training = trials.indices.filter { !inFold[$0] }
            let fitted = nested?[k] ?? scores
            let (trainingTrials, trainingScores) = (training.map { trials[$0] }, training.map { fitted[$0] })
            let test = trials.indices.filter { inFold[$0] }
            var best: (threshold: Float, setting: Int, key: (Int, Double, Double, Double))?
            for threshold in thresholds {
                for setting in RecoveryParameters.grid.indices {
                    let r = OnlineProtocol.evaluate(
                        detector: "", trials: trainingTrials, scores: trainingScores, threshold: threshold,
                        confirmed: confirmed, recovery: setting, tolerance: tolerance)
                    let sensitivity = r.counts.sensitivity ?? 0, fewerAlarms = -Double(r.falseAlarms)
                    let key: (Int, Double, Double, Double)
                    if let target = targetSensitivity {
                        key = sensitivity >= target ? (1, fewerAlarms, sensitivity, 0) : (0, sensitivity, fewerAlarms, 0)
                    } else {
                        key = (0, r.counts.balancedAccuracy ?? 0, sensitivity, fewerAlarms)
                    }
                    if let b = best, !(key > b.key) { continue }
                    best = (threshold, setting, key)
                }
            }
            let pick = (threshold: best?.threshold ?? thresholds[0], setting: best?.setting ?? 0)
            let result = OnlineProtocol.evaluate(
                detector: detector, trials: test.map { testTrials[$0] }, scores: test.map { testScores[$0] }, threshold: pick.threshold,
                confirmed: confirmed, recovery: pick.setting, tolerance: tolerance)
            return (pick, result)
        }
        let chosen = perFold.map(\.pick)
        guard var merged = perFold.first?.result else { throw FallDetectError(.noData, "no folds", field: "folds") }
        for fold in perFold.dropFirst() { merged.merge(fold.result) }
        merged.threshold = chosen.reduce(0) { $0 + $1.threshold } / Float(count)
        return OnlineCrossValidationResult(
            result: merged, thresholds: chosen.map(\.threshold), scores: scores, recoverySettings: chosen.map(\.setting))
    }

    /// `tested`, or `trials` without it; throws unless both list the same trials in the same order.
    static func matching(_ tested: [OnlineTrial]?, _ trials: [OnlineTrial]) throws(FallDetectError) -> [OnlineTrial] {
        guard let tested else { return trials }
        guard tested.map(\.name) == trials.map(\.name) else {
            throw FallDetectError(.invalidArgument, "the tested trials are not the fitted trials in the same order", field: "tested")
        }
        return tested
    }

    static func crossValidate(
        _ trials: [OnlineTrial], folds count: Int, tested: [OnlineTrial]?, tolerance: Double, foldSeed: UInt64 = 0,
        fit: @Sendable ([OnlineTrial]) throws(FallDetectError) -> any FallJudge
    ) throws(FallDetectError) -> OnlineCrossValidationResult {
        let separate = tested != nil
        let tested = try matching(tested, trials)
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: count, seed: foldSeed)
        let perFold = try parallelMap(count) { k throws(FallDetectError) in
            let members = trials.indices.filter { folds.fold(of: trials[$0].name.subject) == k }
            let test = members.map { tested[$0] }
            let judge = try fit(trials.filter { folds.fold(of: $0.name.subject) != k })
            let testScores = test.map { $0.candidates.map(judge.score) }
            let fitted = separate ? members.map { trials[$0].candidates.map(judge.score) } : testScores
            let result = OnlineProtocol.evaluate(
                detector: judge.name, trials: test, scores: testScores, threshold: judge.threshold, tolerance: tolerance)
            return (members: members, threshold: judge.threshold, scores: testScores, fitted: fitted, result: result)
        }
        var scores = [[Float]](repeating: [], count: trials.count)
        var fittedScores = scores
        for fold in perFold {
            for (i, s) in zip(fold.members, fold.scores) { scores[i] = s }
            for (i, s) in zip(fold.members, fold.fitted) { fittedScores[i] = s }
        }
        let thresholds = perFold.map(\.threshold)
        guard var merged = perFold.first?.result else { throw FallDetectError(.noData, "no folds", field: "folds") }
        for fold in perFold.dropFirst() { merged.merge(fold.result) }
        merged.threshold = thresholds.reduce(0, +) / Float(max(1, thresholds.count))
        return OnlineCrossValidationResult(result: merged, thresholds: thresholds, scores: scores, fittedScores: separate ? fittedScores : nil)
    }
}

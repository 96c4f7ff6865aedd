import Testing

@testable import FallDetect

/// Leave-subjects-out cross-validation on hand-built trials: six subjects, each with two falls
/// whose candidates hit 3.05 g and two ADL trials whose candidates hit 2.95 g, all other phases
/// those of a fall. So the only impact threshold on the multiphase judge's grid (1.5, 1.6, … g)
/// that separates them is the first above 2.95 g.
@Suite struct OnlineCrossValidationTests {
    static let subjects = ["SA01", "SA02", "SA03", "SA04", "SE01", "SE02"]

    static func candidate(at seconds: Double, peak: Float, fallLike: Bool) -> FallCandidate {
        let decision = Int64(seconds * 1e9)
        return FallCandidate(
            peakAcceleration: peak, saturated: false, minimumAccelerationBefore: fallLike ? 0.3 : 0.85, lowAccelerationSeconds: fallLike ? 0.25 : 0,
            tiltBefore: 5, tiltAfter: fallLike ? 82 : 20, maximumTiltAfter: fallLike ? 86 : 70, tiltAtDecision: fallLike ? 83 : 20,
            minimumVerticalVelocity: fallLike ? -1.8 : -0.3, peakAngularRate: fallLike ? 250 : 60, motionAfter: 0.05, activityBefore: fallLike ? 0.05 : 0.3,
            fallingStartNanoseconds: decision - 1_000_000_000, impactNanoseconds: decision - 600_000_000, decisionNanoseconds: decision)
    }

    /// `learned`: the ADL candidates also look unlike falls, so a model can tell them apart.
    static func trials(learned: Bool = false) throws -> [OnlineTrial] {
        var out: [OnlineTrial] = []
        for (k, subject) in subjects.enumerated() {
            for r in 1...2 {
                let name = try SisFallTrialName(parsing: "F0\(r)_\(subject)_R01")
                let candidates = [candidate(at: 10.4 + 0.1 * Double(k), peak: 3.05, fallLike: true)]
                out.append(OnlineTrial(name: name, samples: 3000, seconds: 15, fallSpan: 10_000_000_000...11_000_000_000, candidates: candidates))
            }
            for r in 1...2 {
                let name = try SisFallTrialName(parsing: "D0\(r + 2)_\(subject)_R0\(r)")
                let candidates = (0..<3).map { candidate(at: 5 + 35 * Double($0), peak: 2.95, fallLike: !learned) }
                out.append(OnlineTrial(name: name, samples: 24_000, seconds: 120, fallSpan: nil, candidates: candidates))
            }
        }
        return out
    }

    @Test(arguments: [0, 1, 7])
    func needsAtLeastTwoFoldsAndNoMoreThanSubjects(_ folds: Int) throws {
        let trials = try Self.trials()
        do {
            _ = try OnlineCrossValidation.multiphase(trials, folds: folds)
            Issue.record("\(folds) folds accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == "folds")
        }
    }

    /// Every trial is tested exactly once: the merged counts add up to the input.
    static func checkEveryTrialUsedOnce(_ r: OnlineProtocolResult, _ trials: [OnlineTrial]) {
        #expect(r.counts.trials == trials.count)
        #expect(r.counts.falls == trials.filter(\.name.isFall).count)
        let adlSeconds = trials.filter { !$0.name.isFall }.reduce(0) { $0 + $1.seconds }
        #expect(abs(r.adlHours - adlSeconds / 3600) < 1e-9)
        var perCode: [String: Int] = [:]
        for t in trials { perCode[t.name.activityCode, default: 0] += 1 }
        #expect(r.perActivity.mapValues(\.trials) == perCode)
        #expect(r.byGroup[.young]?.counts.trials == trials.filter { $0.name.group == .young }.count)
        #expect(r.byGroup[.elderly]?.counts.trials == trials.filter { $0.name.group == .elderly }.count)
    }

    @Test(arguments: [2, 3, 6])
    func multiphaseFitsTheSeparatingThresholdInEveryFold(_ folds: Int) throws {
        let trials = try Self.trials()
        let r = try OnlineCrossValidation.multiphase(trials, folds: folds).result
        Self.checkEveryTrialUsedOnce(r, trials)
        // The grid point the search must land on in every fold: the first above the ADL peaks.
        let step = (0...40).first { 1.5 + Float($0) * 0.1 > 2.95 }!
        let expected = 1.5 + Float(step) * 0.1
        #expect(expected < 3.05)
        #expect(abs(r.threshold - expected) < 1e-5, "mean fold threshold \(r.threshold)")
        #expect(r.counts.fallsDetected == 12 && r.counts.fallsMissed == 0)
        #expect(r.counts.falseAlarms == 0 && r.falseAlarms == 0)
        #expect(r.latencies.count == 12)
        #expect(r.detector == "multiphase")
    }

    @Test func multiphaseTestsEachFoldWithTheThresholdOfTheOtherFold() throws {
        // Two folds dealt round-robin over the sorted subjects: SA01 SA03 SE01 | SA02 SA04 SE02.
        // The second fold's subjects fall and move 0.6 g softer, so each fold's own separating
        // threshold fails the other: the harder fold raises false alarms at the softer fold's
        // threshold, and the softer fold's falls stay under the harder fold's.
        let softer: Set<String> = ["SA02", "SA04", "SE02"]
        let folds = try SubjectFolds(subjects: Self.subjects, count: 2)
        #expect(Set(folds.members(of: 1)) == softer)
        var trials = try Self.trials()
        for i in trials.indices where softer.contains(trials[i].name.subject) {
            trials[i].candidates = trials[i].candidates.map { var c = $0; c.peakAcceleration -= 0.6; return c }
        }
        let r = try OnlineCrossValidation.multiphase(trials, folds: 2).result
        Self.checkEveryTrialUsedOnce(r, trials)
        #expect(r.counts == ConfusionCounts(fallsDetected: 6, fallsMissed: 6, adlsCleared: 6, falseAlarms: 6))
        #expect(r.falseAlarms == 18)  // three detections per flagged ADL trial, 35 s apart
        func grid(above adl: Float) -> Float { 1.5 + Float((0...40).first { 1.5 + Float($0) * 0.1 > adl }!) * 0.1 }
        #expect(abs(r.threshold - (grid(above: 2.95) + grid(above: 2.95 - 0.6)) / 2) < 1e-5, "\(r.threshold)")
    }

    @Test func learnedTrainsPerFoldAndSeparatesTheClasses() throws {
        let trials = try Self.trials(learned: true)
        let trainer = BoostedTreesTrainer(trees: 10, learningRate: 0.5, maximumDepth: 2, minimumLeafRows: 2, bins: 16, l2: 1)
        let r = try OnlineCrossValidation.learned(trials, folds: 3, trainer: trainer, threshold: 0.5).result
        Self.checkEveryTrialUsedOnce(r, trials)
        #expect(r.threshold == 0.5)
        #expect(r.detector == "learned")
        #expect(r.counts.fallsDetected == 12)
        #expect(r.counts.falseAlarms == 0)
    }

    /// A bagged model leaves out whole subjects, their copies with them: with one faller among six,
    /// the member trained without that subject has no fall and is not made. (Leaving out rows, or
    /// copies apart from their subject, would keep a fall in every member: five members.)
    @Test func baggedModelsLeaveOutWholeSubjectsWithTheirCopies() throws {
        let all = try Self.trials(learned: true)
        let trials = all.filter { !$0.name.isFall || $0.name.subject == "SA01" }
        let copies = all.filter { $0.name.isFall && $0.name.subject == "SA01" }
        let trainer = BoostedTreesTrainer(trees: 10, learningRate: 0.5, maximumDepth: 2, minimumLeafRows: 2, bins: 16, l2: 1, bags: 5)
        let model = try OnlineCrossValidation.fallModel(trainedOn: trials, augmented: copies, trainer: trainer).model
        #expect(model.roots.count == 4 * trainer.trees)
        var single = trainer
        single.bags = 1
        #expect(try OnlineCrossValidation.fallModel(trainedOn: trials, augmented: copies, trainer: single).model.roots.count == trainer.trees)
    }

    /// Extra training trials (softened copies) join a fold's training only when their subject
    /// is one of its training subjects.
    @Test func augmentedTrialsTrainOnlyTheFoldsThatDoNotTestTheirSubject() throws {
        let all = try Self.trials(learned: true)
        let adl = all.filter { !$0.name.isFall }
        let falls = all.filter(\.name.isFall)
        let trainer = BoostedTreesTrainer(trees: 10, learningRate: 0.5, maximumDepth: 2, minimumLeafRows: 2, bins: 16, l2: 1)
        // Activities only: the falls to learn from come from the copies.
        let r = try OnlineCrossValidation.learned(adl, folds: 2, trainer: trainer, threshold: 0.5, augmented: falls).result
        #expect(r.counts.adls == adl.count && r.counts.falseAlarms == 0)
        // One subject's copies only: the fold that tests that subject has no falls to train on.
        let error = #expect(throws: FallDetectError.self) {
            try OnlineCrossValidation.learned(
                adl, folds: 2, trainer: trainer, threshold: 0.5, augmented: falls.filter { $0.name.subject == "SA01" })
        }
        #expect(error?.code == .noData)
    }

    /// Nested scores: fold k's own trials get none, and nothing fold k holds changes them. Here
    /// fold 0's ADL candidates are made to look exactly like its falls: its scores stay as they
    /// were, while the other folds' scores, whose models trained on fold 0, change.
    @Test func nestedScoresNeverSeeTheFoldTheyServe() throws {
        let trials = try Self.trials(learned: true)
        let trainer = BoostedTreesTrainer(trees: 10, learningRate: 0.5, maximumDepth: 2, minimumLeafRows: 2, bins: 16, l2: 1)
        let folds = try SubjectFolds(subjects: trials.map(\.name.subject), count: 3)
        let nested = try OnlineCrossValidation.nestedScores(trials, folds: 3, trainer: trainer)
        #expect(nested.count == 3)
        for k in 0..<3 {
            for (i, t) in trials.enumerated() {
                let own = folds.fold(of: t.name.subject) == k
                #expect(nested[k][i].count == (own ? 0 : t.candidates.count), "fold \(k) trial \(t.name)")
            }
        }
        // Only models that trained on fold 0 can notice.
        let changed = trials.map { t in
            var t = t
            if folds.fold(of: t.name.subject) == 0, !t.name.isFall {
                t.candidates = t.candidates.map { Self.candidate(at: Double($0.decisionNanoseconds) / 1e9, peak: 3.05, fallLike: true) }
            }
            return t
        }
        let again = try OnlineCrossValidation.nestedScores(changed, folds: 3, trainer: trainer)
        #expect(again[0] == nested[0], "fold 0's choice comes from models that never saw fold 0")
        #expect(again[1] != nested[1] || again[2] != nested[2], "the other folds' models did see it")
    }

    /// The recovery choice made on nested scores: fold k chooses on `nested[k]`.
    @Test func recoveryChoosesOnTheNestedScoresWhenGiven() throws {
        let trials = try Self.recoveryTrials(adlFrom: 3, fallFrom: 6)
        let scores = trials.map { $0.candidates.map { _ in Float(1) } }
        // In the nested scores the falls score 0.42, so only the lower threshold keeps them.
        let lower = trials.map { t in t.candidates.map { _ in Float(t.name.isFall ? 0.42 : 0.45) } }
        let nested = [[[Float]]](repeating: lower, count: 3)
        let r = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, nested: nested, thresholds: [0.5, 0.4])
        #expect(r.thresholds == [0.4, 0.4, 0.4])
        let plain = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5, 0.4])
        #expect(plain.thresholds == [0.5, 0.5, 0.5])
        #expect(throws: FallDetectError.self) {
            try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, nested: [lower], thresholds: [0.5])
        }
    }

    @Test func learnedNeedsBothClassesInEveryTrainingSet() throws {
        // No falls at all: the first fold's training set has one class.
        let adlOnly = try Self.trials(learned: true).filter { !$0.name.isFall }
        do {
            _ = try OnlineCrossValidation.learned(adlOnly, folds: 2, threshold: 0.5)
            Issue.record("trained without falls")
        } catch {
            #expect(error.code == .noData)
        }
    }

    /// Every candidate scores 1 (a detection). ADL wearers are up again under the settings from
    /// index `adlFrom` of the grid on; fallers only from `fallFrom` on (the loosest bounds), or
    /// for subjects in `fallersUp` under every setting.
    static func recoveryTrials(adlFrom: Int, fallFrom: Int) throws -> [OnlineTrial] {
        try trials().map { trial in
            var trial = trial
            let from = trial.name.isFall ? fallFrom : adlFrom
            for i in trial.candidates.indices {
                for g in RecoveryParameters.grid.indices where g >= from { trial.recoveries[i][g] = trial.candidates[i].decisionNanoseconds + 3_000_000_000 }
            }
            return trial
        }
    }

    @Test(arguments: [2, 3, 6])
    func recoveryChoosesPerFoldTheSettingThatWithdrawsFalseAlarmsButNoFalls(_ folds: Int) throws {
        let trials = try Self.recoveryTrials(adlFrom: 3, fallFrom: 6)
        let scores = trials.map { $0.candidates.map { _ in Float(1) } }
        let r = try OnlineCrossValidation.recovery(trials, folds: folds, scores: scores, thresholds: [0.5])
        #expect(r.recoverySettings == [Int](repeating: 3, count: folds), "settings 3…5 all separate; the first of equals")
        #expect(r.thresholds == [Float](repeating: 0.5, count: folds))
        #expect(r.result.falseAlarms == 0)
        #expect(r.result.counts.fallsMissed == 0)
        #expect(r.result.detector == "learned+recovery")
        Self.checkEveryTrialUsedOnce(r.result, trials)

        let without = OnlineProtocol.evaluate(detector: "", trials: trials, scores: scores, threshold: 0.5)
        #expect(without.falseAlarms == 36, "two ADL trials per subject, three candidates each, 35 s apart: past the 30 s gate")
    }

    @Test func recoveryKeepsTheFallsWhenNoSettingSeparates() throws {
        // Wearers get up after falls and ADL alike under every setting but the strictest ones:
        // withdrawing costs as much SE as it gains SP, so SE decides and nothing is withdrawn.
        let trials = try Self.recoveryTrials(adlFrom: 4, fallFrom: 4)
        let scores = trials.map { $0.candidates.map { _ in Float(1) } }
        let r = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5])
        #expect(r.recoverySettings.allSatisfy { $0 < 4 })
        #expect(r.result.counts.fallsMissed == 0)
    }

    @Test func recoveryChoosesTheThresholdWithTheSetting() throws {
        // Falls score 0.42, ADL 0.45: only a threshold low enough for the falls, with a setting
        // that withdraws the ADL detections, gets both right.
        let trials = try Self.recoveryTrials(adlFrom: 3, fallFrom: 6)
        let scores = trials.map { t in t.candidates.map { _ in Float(t.name.isFall ? 0.42 : 0.45) } }
        let r = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5, 0.4, 0.3])
        #expect(r.thresholds == [0.4, 0.4, 0.4], "the first of the thresholds that separate")
        #expect(r.recoverySettings == [3, 3, 3])
        #expect(abs(r.result.threshold - 0.4) < 1e-6)
        #expect(r.result.counts.fallsMissed == 0 && r.result.falseAlarms == 0)
        #expect(throws: FallDetectError.self) { try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: []) }
    }

    @Test func aTargetSensitivityTakesTheFewestFalseAlarmsAmongTheChoicesThatReachIt() throws {
        // Nobody gets up, so the threshold alone decides. F02 falls score 0.45; every ADL trial
        // has one candidate at 0.5, and D03 one more at 0.41.
        let never = RecoveryParameters.grid.count
        let trials = try Self.recoveryTrials(adlFrom: never, fallFrom: never)
        let scores: [[Float]] = trials.map { t in
            switch t.name.activityCode {
            case "F01": [0.6]
            case "F02": [0.45]
            case "D03": [0.41, 0.5, 0]
            default: [0.5, 0, 0]
            }
        }
        let thresholds: [Float] = [0.4, 0.44, 0.55]
        // (SE + SP) / 2 gives up half the falls to clear every ADL trial.
        let balanced = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: thresholds)
        #expect(balanced.thresholds == [0.55, 0.55, 0.55])
        #expect(balanced.result.counts.fallsMissed == 6 && balanced.result.falseAlarms == 0)
        // With a 99 % target: both 0.4 and 0.44 reach it; 0.44 raises fewer false alarms.
        let targeted = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: thresholds, targetSensitivity: 0.99)
        #expect(targeted.thresholds == [0.44, 0.44, 0.44])
        #expect(targeted.result.counts.fallsMissed == 0)
        #expect(targeted.result.falseAlarms == 12, "one per ADL trial")
        // Out of reach: the most sensitive choice, then the fewest false alarms.
        let unreachable = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5, 0.55], targetSensitivity: 0.99)
        #expect(unreachable.thresholds == [0.55, 0.55, 0.55])
        #expect(unreachable.result.falseAlarms == 0)
    }

    @Test func everythingIsFittedOnTheTrialsAndTestedOnTheTestedOnes() throws {
        let trials = try Self.trials()
        // Tested on softer falls (0.2 g less): the separating threshold is still fitted on the
        // recorded ones, so the softened falls now fall under it; the ADL side is unchanged.
        let tested = trials.map { trial in
            var trial = trial
            if trial.name.isFall { trial.candidates = trial.candidates.map { var c = $0; c.peakAcceleration -= 0.2; return c } }
            return trial
        }
        let plain = try OnlineCrossValidation.multiphase(trials, folds: 3).result
        let r = try OnlineCrossValidation.multiphase(trials, folds: 3, tested: tested)
        #expect(r.result.threshold == plain.threshold)
        #expect(r.result.counts.fallsMissed == 12 && plain.counts.fallsMissed == 0)
        #expect(r.result.falseAlarms == plain.falseAlarms && r.result.counts.adlsCleared == plain.counts.adlsCleared)
        let plainScores = try OnlineCrossValidation.multiphase(trials, folds: 3).scores
        #expect(r.fittedScores != r.scores && r.fittedScores == plainScores)
        let c8 = try OnlineBaseline.crossValidate(trials, folds: 3, tested: tested)
        #expect(c8.counts.trials == trials.count)
        // One training per fold gives the out-of-fold scores of both lists.
        let learnedTrials = try Self.trials(learned: true)
        let trainer = BoostedTreesTrainer(trees: 10, learningRate: 0.5, maximumDepth: 2, minimumLeafRows: 2, bins: 16, l2: 1)
        let learned = try OnlineCrossValidation.learned(learnedTrials, folds: 3, trainer: trainer, threshold: 0.5, tested: learnedTrials)
        let learnedAlone = try OnlineCrossValidation.learned(learnedTrials, folds: 3, trainer: trainer, threshold: 0.5)
        #expect(learned.fittedScores == learnedAlone.scores && learned.scores == learnedAlone.scores)
        // The recovery choice too: withdrawing nothing from the tested falls it was not fitted on.
        let scores = trials.map { $0.candidates.map { _ in Float(1) } }
        let testedScores = trials.map { t in t.candidates.map { _ in Float(t.name.isFall ? 0.1 : 1) } }
        let recovered = try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5], tested: (trials, testedScores))
        #expect(recovered.thresholds == [0.5, 0.5, 0.5] && recovered.result.counts.fallsMissed == 12)
        // Tested trials must be the fitted ones, in the same order.
        #expect(throws: FallDetectError.self) { try OnlineCrossValidation.multiphase(trials, folds: 3, tested: tested.reversed()) }
        #expect(throws: FallDetectError.self) {
            try OnlineCrossValidation.recovery(trials, folds: 3, scores: scores, thresholds: [0.5], tested: (trials, Array(testedScores.dropLast())))
        }
    }
}


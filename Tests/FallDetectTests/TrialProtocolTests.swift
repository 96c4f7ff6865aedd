import Testing

@testable import FallDetect

@Suite struct TrialProtocolTests {
    func trial(_ name: String, _ score: Float) throws -> ScoredTrial {
        ScoredTrial(name: try SisFallTrialName(parsing: name), score: score)
    }

    /// Falls 3, 4, 5 and ADL 1, 2, 3.5: cutting at 2.5 (SE 1, SP 2/3) and at 3.75 (SE 2/3, SP 1)
    /// tie at AC 5/6; the lower, more sensitive one wins.
    @Test func bestThresholdMaximisesAC() throws {
        let trials = [
            try trial("F01_SA01_R01", 3), try trial("F01_SA01_R02", 4), try trial("F01_SA01_R03", 5),
            try trial("D07_SA01_R01", 1), try trial("D07_SA01_R02", 2), try trial("D07_SA01_R03", 3.5),
        ]
        #expect(TrialProtocol.bestThreshold(trials) == 2.5)
        let separable = [try trial("F01_SA01_R01", 5), try trial("F01_SA01_R02", 6), try trial("D07_SA01_R01", 1), try trial("D07_SA01_R02", 2)]
        #expect(TrialProtocol.bestThreshold(separable) == 3.5)
        #expect(TrialProtocol.bestThreshold(Array(separable.prefix(2))) == nil)
    }

    /// Equal scores fall on the same side of any threshold.
    @Test func tiesStayTogether() throws {
        let trials = [try trial("F01_SA01_R01", 2), try trial("D07_SA01_R01", 2), try trial("D07_SA01_R02", 1)]
        let t = try #require(TrialProtocol.bestThreshold(trials))
        #expect(t == 1.5)  // flags both 2s: SE 1, SP 1/2 (AC 0.75) beats flagging none (AC 0.5)
    }

    /// Four subjects in two folds; each fold's threshold comes from the other fold's subjects.
    @Test func crossValidatesBySubject() throws {
        // Fold 0: SA01, SA03 (dealt 0, 2); fold 1: SA02, SA04.
        var trials: [ScoredTrial] = []
        for (subject, fall, adl) in [("SA01", 5, 1), ("SA02", 6, 2), ("SA03", 3, 3.9), ("SA04", 7, 1)] as [(String, Float, Float)] {
            trials.append(try trial("F01_\(subject)_R01", fall))
            trials.append(try trial("D07_\(subject)_R01", adl))
        }
        trials.append(try trial("D07_SE01_R01", 2.5))  // an elderly ADL, dealt to fold 0
        let result = try TrialProtocol.evaluate(trials, folds: 2)
        // Fold 0 trains on SA02, SA04 (falls 6, 7; ADL 2, 1): cut 4. Fold 1 trains on SA01, SA03, SE01
        // (falls 5, 3; ADL 1, 3.9, 2.5): cut at 2.75 flags 3, 3.9 and 5 (AC 5/6), beating 4.45 (AC 3/4).
        #expect(result.thresholds == [4, 2.75])
        #expect(result.foldCounts[0] == ConfusionCounts(fallsDetected: 1, fallsMissed: 1, adlsCleared: 3, falseAlarms: 0))
        #expect(result.foldCounts[1] == ConfusionCounts(fallsDetected: 2, fallsMissed: 0, adlsCleared: 2, falseAlarms: 0))
        #expect(result.pooled.trials == trials.count)
        #expect(result.byGroup[.elderly] == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 1, falseAlarms: 0))
        #expect(result.perActivity["F01"] == ConfusionCounts(fallsDetected: 3, fallsMissed: 1, adlsCleared: 0, falseAlarms: 0))
        #expect(result.foldBalancedAccuracy == [0.75, 1])
        let summary = try #require(result.foldBalancedAccuracySummary)
        #expect(summary.mean == 0.875)
        #expect(abs(summary.std - 0.125 * 2.0.squareRoot()) < 1e-12)
    }

    /// A training set without falls cannot choose a threshold: an error naming the fold.
    @Test func trainingWithoutFallsIsAnError() throws {
        let trials = [try trial("F01_SA01_R01", 5), try trial("D07_SA01_R01", 1), try trial("D07_SE01_R01", 1)]
        #expect {
            try TrialProtocol.evaluate(trials, folds: 2)
        } throws: { error in
            (error as? FallDetectError)?.code == .noData && "\(error)".contains("SA01")
        }
    }
}

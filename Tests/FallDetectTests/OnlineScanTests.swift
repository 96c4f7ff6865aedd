import Foundation
import Testing

@testable import FallDetect

/// The fall detectors over the whole SisFall development split, as `detectord bench --protocol
/// online` runs them: a guard on the accuracy the README reports (the exact figures come from the
/// release build; these bounds sit just under them, so a change that costs accuracy fails here).
@Suite struct OnlineScanTests {
    @Test func theDevelopmentSplitStaysAsAccurateAsReported() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dataset = try SisFallDataset(root: root)
        let cache = try TrialCache(directory: try SharedData.temporaryDirectory("online-scan-cache"))
        let scan = try OnlineScan(dataset: dataset, cache: cache)
        #expect(scan.trials.count == 3291)
        #expect(scan.trials.filter(\.name.isFall).count == 1350)
        #expect(scan.fallsWithoutLabels.isEmpty)

        // The shipped detectors as they are (in-sample for the learned model).
        let learned = OnlineProtocol.evaluate(try LearnedFallJudge.shipped(), on: scan.trials)
        #expect(learned.counts.sensitivity ?? 0 >= 0.995, "\(learned.counts)")
        #expect(learned.counts.specificity ?? 0 >= 0.995, "\(learned.counts)")
        #expect(learned.medianLatency ?? 9 <= 1.0)
        let multiphase = OnlineProtocol.evaluate(try MultiphaseFallJudge(), on: scan.trials)
        #expect(multiphase.counts.sensitivity ?? 0 >= 0.965, "\(multiphase.counts)")
        #expect(multiphase.counts.specificity ?? 0 >= 0.975, "\(multiphase.counts)")

        // On people the model never saw: 5 folds by subject, a lighter model to keep the debug
        // build's training short (the README's figures use 10 folds and the shipped trainer).
        let trainer = BoostedTreesTrainer(trees: 100, learningRate: 0.1)
        let learnedFolds = try OnlineCrossValidation.learned(scan.trials, folds: 5, trainer: trainer, threshold: 0.5)
        let validated = learnedFolds.result
        #expect(validated.counts.sensitivity ?? 0 >= 0.975, "\(validated.counts)")
        #expect(validated.counts.specificity ?? 0 >= 0.99, "\(validated.counts)")
        #expect(validated.falseAlarmsPerHour ?? 9 <= 1.5, "\(validated.falseAlarms) false alarms in \(validated.adlHours) h")
        // Turning over while lying: with the turn-in-bed rule 2 false alarms here, 3 without it
        // (at 10 folds and the shipped trainer, 7 before the still reading and the rule, 2 after).
        let d14 = validated.perActivity["D14"]?.falseAlarms ?? 99
        #expect(d14 <= 2, "D14 false alarms: \(d14)")
        #expect(validated.medianLatency ?? 9 <= 1.0)
        print("cross-validated (5 folds, 100 trees): SE \(validated.counts.sensitivity ?? 0), SP \(validated.counts.specificity ?? 0), "
            + "\(validated.falseAlarmsPerHour ?? 0) false alarms/h")

        // The recovery check after the same out-of-fold detections: it withdraws the wearers who
        // lay down quickly and sat up again (D13) without giving up more than a few falls.
        let recovered = try OnlineCrossValidation.recovery(scan.trials, folds: 5, scores: learnedFolds.scores, thresholds: [0.5]).result
        let d13 = (before: validated.perActivity["D13"]?.falseAlarms ?? 0, after: recovered.perActivity["D13"]?.falseAlarms ?? 0)
        #expect(d13.before > 0 && d13.after < d13.before, "D13 false alarms \(d13)")
        #expect(recovered.falseAlarms < validated.falseAlarms)
        #expect(recovered.counts.fallsMissed <= validated.counts.fallsMissed + 5, "\(recovered.counts) against \(validated.counts)")
        print("with the recovery check: SE \(recovered.counts.sensitivity ?? 0), SP \(recovered.counts.specificity ?? 0), "
            + "\(recovered.falseAlarmsPerHour ?? 0) false alarms/h")
    }
}

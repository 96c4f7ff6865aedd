import ArgumentParser
import FallDetect
import Foundation

/// HAPT's figures when the learned model also trains on HAPT (`bench --train --negatives DIR`):
/// held out by subject (each fold's people tested with a model that trained on all of SisFall and
/// on the other HAPT people), and the dataset left out whole (a model trained on SisFall alone).
struct HeldOutNegatives {
    var folds: Int
    var bySubject: ContinuousResult
    var leftOut: ContinuousResult
}

extension BenchCommand {
    static func loadHAPT(root: String) throws(FallDetectError) -> [LabelledRecording] {
        let data = try HAPTDataset(root: root)
        var recordings: [LabelledRecording] = []
        for outcome in data.loadAll() { recordings.append(try outcome.get().recording) }
        return recordings
    }

    /// Every learned model here is the shipped recipe (`--trees`, `--bags`, `--augment`) at the
    /// shipped threshold, run through the walking profile exactly as `run` runs it.
    func heldOutNegatives(
        trials: [OnlineTrial], copies: [OnlineTrial], recordings: [LabelledRecording], rows: [NegativeCandidates]
    ) throws(FallDetectError) -> HeldOutNegatives {
        let subjects = rows.map(\.subject)
        let count = min(5, subjects.count)
        let folds = try SubjectFolds(subjects: subjects, count: count, seed: foldSeed)
        var bySubject = ContinuousResult(detector: "learned", profile: "walking")
        for k in 0..<count {
            let model = try modelFile(trials: trials, copies: copies, negatives: rows.filter { folds.fold(of: $0.subject) != k })
            let tested = recordings.filter { folds.fold(of: $0.subject) == k }
            let result = try ContinuousEvaluation.evaluate(tested, profile: .walking, fallModel: model)
            bySubject.merge(result)
        }
        let alone = try modelFile(trials: trials, copies: copies, negatives: [])
        var leftOut = try ContinuousEvaluation.evaluate(recordings, profile: .walking, fallModel: alone)
        leftOut.detector = "learned"
        return HeldOutNegatives(folds: count, bySubject: bySubject, leftOut: leftOut)
    }

    private func modelFile(trials: [OnlineTrial], copies: [OnlineTrial], negatives: [NegativeCandidates]) throws(FallDetectError) -> FallModelFile {
        let options = trainer
        let recipe = options.trainer
        let (trees, rows, falls) = try OnlineCrossValidation.fallModel(trainedOn: trials, augmented: copies, negatives: negatives, trainer: recipe)
        let augmentation: FallAugmentation
        do { augmentation = try options.augmentation } catch { throw FallDetectError(.invalidArgument, "\(error)", field: "augment") }
        return try FallModelFile(
            trees: trees, threshold: DetectionProfile.walking.learnedThreshold, subjects: Set(trials.map(\.name.subject)).sorted() + negatives.map(\.subject),
            candidates: rows, falls: falls, trainer: recipe, augmentation: augmentation)
    }

    static func heldOutTable(_ h: HeldOutNegatives) -> String {
        func row(_ label: String, _ r: ContinuousResult) -> String {
            let rate = r.falseAlarmsPerHour.map { ProgressLine.fixed($0, 2) } ?? "-"
            let interval = r.falseAlarmsPerHourInterval.map { "\(ProgressLine.fixed($0.lowerBound, 2))–\(ProgressLine.fixed($0.upperBound, 2))" } ?? "-"
            var line = padded(label, 62) + padded("\(r.falseAlarms.count) (\(rate)/h, \(interval))", 26)
                + "\(r.removalsWithDetection) of \(r.removals)\n"
            for d in r.detections { line += "    \(d.recording) at \(ProgressLine.fixed(d.seconds, 2)) s during \(d.activity)\n" }
            return line
        }
        return "\nHAPT (\(ProgressLine.fixed(h.bySubject.activityHours, 2)) h, \(h.bySubject.removals) removals), learned, walking profile as run uses it:\n"
            + padded("model", 62) + padded("false alarms", 26) + "removals with a detection\n"
            + row("held out by subject (\(h.folds) folds; SisFall + other HAPT people)", h.bySubject)
            + row("HAPT left out (trained on SisFall alone)", h.leftOut)
    }
}

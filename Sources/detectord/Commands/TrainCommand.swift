import ArgumentParser
import FallDetect
import Foundation

/// `detectord train`: fits the learned fall detector on a SisFall folder and writes the model as
/// the Swift source that ships it. `make train` runs it on the development subjects.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the learned fall detector on a SisFall folder and write the shipped model.",
        discussion: """
            Runs the daemon's front end (AHRS fusion and the fall candidate tracker) over every trial of DIR, \
            labels each candidate (a fall when its decision lands in the labelled FALL span of \
            SisFall_enhanced/ or at most 2 s after it), and fits gradient-boosted trees on the candidates' \
            measurements, together with those of softened copies of the falls (--augment, 0.5 by \
            default: |a| - 1 g halved around the impact, for the softer falls of older people). \
            The model is the average of --bags models (5 by default), each trained without a different \
            share of the subjects. Deterministic: the same data gives the same model. Writes a Swift file holding the model as \
            text (default: the shipped one under Sources/); rebuild to ship it. Evaluate with \
            `detectord bench --protocol online --train`, which retrains per fold on other subjects only.
            """)

    @Option(help: ArgumentHelp("Folder holding SisFall_dataset/ and SisFall_enhanced/.", valueName: "dir"))
    var root: String

    @Option(help: ArgumentHelp("Swift file to write.", valueName: "file"))
    var out: String = "Sources/FallDetect/Detection/Fall/ShippedFallModel.swift"

    @Option(help: ArgumentHelp("Probability at or above which a candidate is a fall.", valueName: "p"))
    var threshold: Float = 0.5

    @OptionGroup(title: "Trainer")
    var options: TrainerOptions

    @Option(help: ArgumentHelp("Folder for the parsed-dataset cache (default: $XDG_CACHE_HOME/detectord or ~/.cache/detectord).", valueName: "dir"))
    var cache: String?

    func validate() throws {
        guard threshold > 0, threshold < 1 else { throw ValidationError("--threshold must lie in (0, 1)") }
    }

    func run() throws {
        let err = Terminal.standardError
        let trainer = options.trainer
        let augmentation = try options.augmentation
        let model: BoostedTrees
        let positives: Int
        let rows: Int
        let subjects: [String]
        do {
            let data = try SisFallDataset(root: root)
            guard data.hasEnhancedLabels else {
                throw FallDetectError(.noData, "training needs SisFall_enhanced/ beside SisFall_dataset/", path: data.enhancedDirectory)
            }
            let cacheDirectory = (cache ?? ReplayCatalog.defaultCacheDirectory()) + "/sisfall"
            let trialCache = try? TrialCache(directory: cacheDirectory)
            let scan = try OnlineScan(dataset: data, cache: trialCache)
            for notice in scan.notices { err.write("note: \(notice)\n") }
            let copies = try augmentation.trials(of: data, cache: trialCache)
            (model, rows, positives) = try OnlineCrossValidation.fallModel(trainedOn: scan.trials, augmented: copies, trainer: trainer)
            subjects = Set(scan.trials.map(\.name.subject)).sorted()
        } catch let error as FallDetectError {
            err.write("detectord train: \(error)\n")
            throw ExitCode(error.code == .invalidArgument ? 64 : 66)
        }
        let source = Self.source(
            model: model, threshold: threshold, trainer: trainer, augmentation: augmentation, subjects: subjects, rows: rows, positives: positives)
        do {
            try source.write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            err.write("detectord train: \(out): cannot write: \(error.localizedDescription)\n")
            throw ExitCode(73)
        }
        Terminal.standardOutput.write(
            "trained on \(rows) candidates (\(positives) falls\(Self.copiesNote(augmentation))) from \(subjects.count) subjects: "
                + "\(model.roots.count) trees, \(model.nodes.count) nodes; wrote \(out)\n")
    }

    /// ", softened copies at 0.5 included", or nothing without copies.
    static func copiesNote(_ augmentation: FallAugmentation) -> String {
        augmentation.scales.isEmpty ? "" : ", softened copies at \(augmentation.scales.map { "\($0)" }.joined(separator: ", ")) included"
    }

    /// How many models the committed one averages (members without both classes are not made),
    /// and what each left out.
    static func bagsNote(_ model: BoostedTrees, _ trainer: BoostedTreesTrainer, subjects: Int) -> String {
        let members = model.roots.count / max(1, trainer.trees)
        let share = min(trainer.bags, subjects) == subjects ? "subject" : "1/\(min(trainer.bags, subjects)) of the subjects"
        return members > 1 ? ", averaged over \(members) models, each trained without a different \(share)" : ""
    }

    static func source(
        model: BoostedTrees, threshold: Float, trainer: BoostedTreesTrainer, augmentation: FallAugmentation, subjects: [String], rows: Int,
        positives: Int
    ) -> String {
        let body = model.text.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        return """
            // Generated by `detectord train` (make train); do not edit by hand.
            // Trained on \(rows) fall candidates (\(positives) falls\(copiesNote(augmentation))) of the SisFall development subjects
            // \(subjects.joined(separator: " "))
            // with \(trainer.trees) trees of depth \(trainer.maximumDepth), learning rate \(trainer.learningRate), \
            at least \(trainer.minimumLeafRows) rows a leaf, \(trainer.bins) bins, L2 \(trainer.l2)\(bagsNote(model, trainer, subjects: subjects.count)).

            /// The learned fall detector's model and operating point, as committed data.
            enum ShippedFallModel {
                static let threshold: Float = \(threshold)
                static let text = \"\"\"
            \(body)
                    \"\"\"
            }

            """
    }
}

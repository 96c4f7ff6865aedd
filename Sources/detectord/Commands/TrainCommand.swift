import ArgumentParser
import FallDetect
import Foundation

/// `detectord train`: fits the learned fall detector on a SisFall folder and writes the model file
/// (docs/model-format.md) that ships it. `make train` runs it on the development subjects.
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
            share of the subjects. Deterministic: the same data gives the same model. Writes the model file \
            (docs/model-format.md: the threshold and the training settings, then the trees; default: the shipped one \
            under Sources/, which the build copies beside the binary). With --negatives, the candidates \
            of a HAPT folder (daily life from a waist phone, no falls) train as non-falls too, each of its \
            people a group of the bagged trainer. Evaluate with \
            `detectord bench --protocol online --train`, which retrains per fold on other subjects only.
            """)

    @Option(help: ArgumentHelp("Folder holding SisFall_dataset/ and SisFall_enhanced/.", valueName: "dir"))
    var root: String

    @Option(help: ArgumentHelp("A HAPT folder (recordings/userNN_expK.csv) whose fall candidates train as non-falls.", valueName: "dir"))
    var negatives: String?

    @Option(help: ArgumentHelp("Model file to write.", valueName: "file"))
    var out: String = "Sources/FallDetect/Resources/fall-model.txt"

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
            let negativeRows = try NegativeCandidates.scan(try negatives.map { try BenchCommand.loadHAPT(root: $0) } ?? [])
            (model, rows, positives) = try OnlineCrossValidation.fallModel(
                trainedOn: scan.trials, augmented: copies, negatives: negativeRows, trainer: trainer)
            subjects = Set(scan.trials.map(\.name.subject)).sorted() + negativeRows.map(\.subject)
        } catch let error as FallDetectError {
            err.write("detectord train: \(error)\n")
            throw ExitCode(error.code == .invalidArgument ? 64 : 66)
        }
        let file: FallModelFile
        do {
            file = try FallModelFile(
                trees: model, threshold: threshold, subjects: subjects, candidates: rows, falls: positives, trainer: trainer,
                augmentation: augmentation)
        } catch {
            err.write("detectord train: \(error)\n")
            throw ExitCode(70)
        }
        do {
            try file.text.write(toFile: out, atomically: true, encoding: .utf8)
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
}

import ArgumentParser
import FallDetect
import Foundation

/// The boosted-trees trainer's settings on the command line (`train`, `bench --train`); the
/// defaults are the shipped model's.
struct TrainerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Number of trees.", valueName: "n"))
    var trees: Int = BoostedTreesTrainer().trees

    @Option(help: ArgumentHelp("Levels of splits per tree.", valueName: "n"))
    var depth: Int = BoostedTreesTrainer().maximumDepth

    @Option(name: .customLong("learning-rate"), help: ArgumentHelp("Shrinkage of each tree.", valueName: "x"))
    var learningRate: Float = BoostedTreesTrainer().learningRate

    @Option(name: .customLong("leaf-rows"), help: ArgumentHelp("Rows each leaf must keep.", valueName: "n"))
    var leafRows: Int = BoostedTreesTrainer().minimumLeafRows

    @Option(help: ArgumentHelp("Models averaged, each trained without a different share of the subjects (1: one model).", valueName: "n"))
    var bags: Int = BoostedTreesTrainer().bags

    @Option(
        help: ArgumentHelp(
            "Also train on copies of the falls with |a| - 1 g scaled by each of these factors (comma-separated, each in (0, 1)), "
                + "so the model does not learn that every fall is hard; none trains on the recorded falls only.",
            valueName: "k,..."))
    var augment: String = FallAugmentation.shippedScales.map { "\($0)" }.joined(separator: ",")

    func validate() throws {
        guard (1...5000).contains(trees) else { throw ValidationError("--trees must lie in 1…5000") }
        guard (1...8).contains(depth) else { throw ValidationError("--depth must lie in 1…8") }
        guard learningRate > 0, learningRate <= 1 else { throw ValidationError("--learning-rate must lie in (0, 1]") }
        guard leafRows >= 1 else { throw ValidationError("--leaf-rows must be at least 1") }
        guard (1...20).contains(bags) else { throw ValidationError("--bags must lie in 1…20") }
        _ = try augmentation
    }

    /// The softened copies `--augment` asks for.
    var augmentation: FallAugmentation {
        get throws {
            if augment.lowercased() == "none" { return try FallAugmentation(scales: []) }
            let parts = augment.split(separator: ",", omittingEmptySubsequences: false)
            let scales = parts.compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, scales.count == parts.count else {
                throw ValidationError("--augment must be none or comma-separated numbers in (0, 1), got '\(augment)'")
            }
            do { return try FallAugmentation(scales: scales) } catch { throw ValidationError("--augment: \(error.message)") }
        }
    }

    var trainer: BoostedTreesTrainer {
        BoostedTreesTrainer(trees: trees, learningRate: learningRate, maximumDepth: depth, minimumLeafRows: leafRows, bags: bags)
    }
}

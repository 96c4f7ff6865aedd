import ArgumentParser
import FallDetect

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

    func validate() throws {
        guard (1...5000).contains(trees) else { throw ValidationError("--trees must lie in 1…5000") }
        guard (1...8).contains(depth) else { throw ValidationError("--depth must lie in 1…8") }
        guard learningRate > 0, learningRate <= 1 else { throw ValidationError("--learning-rate must lie in (0, 1]") }
        guard leafRows >= 1 else { throw ValidationError("--leaf-rows must be at least 1") }
    }

    var trainer: BoostedTreesTrainer {
        BoostedTreesTrainer(trees: trees, learningRate: learningRate, maximumDepth: depth, minimumLeafRows: leafRows)
    }
}

/// The learned judge: gradient-boosted trees over the candidate's measurements
/// (`FallCandidate.features`), trained by `detectord train` on the SisFall development subjects
/// only. Its score is the model's probability that the candidate is a fall, and 0 for a candidate
/// outside the physical bounds of a fall (`PhysicalFallBounds`), whatever the model says.
public struct LearnedFallJudge: FallJudge {
    public var model: BoostedTrees
    public var threshold: Float
    public var bounds: PhysicalFallBounds
    public var name: String { "learned" }

    public init(model: BoostedTrees, threshold: Float, bounds: PhysicalFallBounds = .standard) throws(FallDetectError) {
        guard model.featureCount <= FallCandidate.featureNames.count else {
            throw FallDetectError(
                .invalidArgument, "model reads \(model.featureCount) features; candidates have \(FallCandidate.featureNames.count)",
                field: "features")
        }
        guard threshold.isFinite, threshold > 0, threshold < 1 else {
            throw FallDetectError(.invalidArgument, "threshold must lie in (0, 1), got \(threshold)", field: "threshold")
        }
        try bounds.validate()
        self.model = model
        self.threshold = threshold
        self.bounds = bounds
    }

    /// The model and threshold of a model file (`detectord train`'s output).
    public init(modelFile: FallModelFile) throws(FallDetectError) {
        try self.init(model: modelFile.trees, threshold: modelFile.threshold)
    }

    /// The shipped model (`FallModelFile.shipped()`), at its shipped threshold.
    public static func shipped() throws(FallDetectError) -> LearnedFallJudge {
        try LearnedFallJudge(modelFile: FallModelFile.shipped())
    }

    public func score(_ candidate: FallCandidate) -> Float {
        bounds.admits(candidate) ? model.probability(candidate.features) : 0
    }

    /// The probability itself, rescaled so the threshold maps to 0.5.
    public func confidence(score: Float) -> Float {
        guard score >= threshold else { return 0 }
        return 0.5 + 0.5 * (score - threshold) / max(1e-6, 1 - threshold)
    }
}

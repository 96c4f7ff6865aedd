/// What the trial protocol found for one detector: decisions on held-out folds, each trial tested
/// exactly once with the threshold chosen on the other folds.
public struct TrialProtocolResult: Sendable {
    public var folds: SubjectFolds
    /// Threshold chosen on the training folds of each fold, in the feature's unit.
    public var thresholds: [Float]
    /// Test decisions of each fold.
    public var foldCounts: [ConfusionCounts]
    /// All test decisions pooled.
    public var pooled: ConfusionCounts
    /// Pooled test decisions per age group.
    public var byGroup: [SisFallTrialName.Group: ConfusionCounts]
    /// Pooled test decisions per activity code ("D01"…, "F15"): which ADL trigger, which falls are missed.
    public var perActivity: [String: ConfusionCounts]

    public init(
        folds: SubjectFolds, thresholds: [Float], foldCounts: [ConfusionCounts], pooled: ConfusionCounts,
        byGroup: [SisFallTrialName.Group: ConfusionCounts], perActivity: [String: ConfusionCounts]
    ) {
        self.folds = folds
        self.thresholds = thresholds
        self.foldCounts = foldCounts
        self.pooled = pooled
        self.byGroup = byGroup
        self.perActivity = perActivity
    }

    /// AC of each fold; nil for a fold without falls or without ADL.
    public var foldBalancedAccuracy: [Double?] { foldCounts.map(\.balancedAccuracy) }

    /// Mean and sample standard deviation (n − 1) of the defined fold ACs, as the paper reports
    /// "mean ± std" over folds; nil when no fold has both classes (std 0 for a single fold).
    public var foldBalancedAccuracySummary: (mean: Double, std: Double)? {
        let values = foldBalancedAccuracy.compactMap { $0 }
        guard !values.isEmpty else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        guard values.count > 1 else { return (mean, 0) }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (mean, variance.squareRoot())
    }
}

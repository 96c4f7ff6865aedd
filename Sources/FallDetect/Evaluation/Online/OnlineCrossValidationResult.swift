/// A cross-validated detector: the pooled held-out outcome, each fold's threshold, and every
/// candidate's score from the model of the fold that held its trial out (for sweeps), and for the
/// recovery check each fold's chosen setting.
public struct OnlineCrossValidationResult: Sendable {
    public var result: OnlineProtocolResult
    public var thresholds: [Float]
    /// One list per trial (input order), one score per candidate, of the trials tested.
    public var scores: [[Float]]
    /// The same for the trials fitted on, when the tested ones differ (`tested:`); else `scores`.
    public var fittedScores: [[Float]]
    /// Per fold, the index into `RecoveryParameters.grid` chosen on its training subjects.
    public var recoverySettings: [Int]

    public init(
        result: OnlineProtocolResult, thresholds: [Float], scores: [[Float]], fittedScores: [[Float]]? = nil, recoverySettings: [Int] = []
    ) {
        self.result = result
        self.thresholds = thresholds
        self.scores = scores
        self.fittedScores = fittedScores ?? scores
        self.recoverySettings = recoverySettings
    }
}

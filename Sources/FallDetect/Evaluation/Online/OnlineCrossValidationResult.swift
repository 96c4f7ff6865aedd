/// A cross-validated detector: the pooled held-out outcome, each fold's threshold, and every
/// candidate's score from the model of the fold that held its trial out (for sweeps).
public struct OnlineCrossValidationResult: Sendable {
    public var result: OnlineProtocolResult
    public var thresholds: [Float]
    /// One list per trial (input order), one score per candidate.
    public var scores: [[Float]]

    public init(result: OnlineProtocolResult, thresholds: [Float], scores: [[Float]]) {
        self.result = result
        self.thresholds = thresholds
        self.scores = scores
    }
}

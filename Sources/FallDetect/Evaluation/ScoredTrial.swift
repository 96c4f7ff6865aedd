/// One trial's score under one detector: the maximum of its feature over the trial, in the
/// feature's unit. `-infinity` when the trial never filled a window (it can never trigger).
public struct ScoredTrial: Sendable, Hashable {
    public var name: SisFallTrialName
    public var score: Float

    public init(name: SisFallTrialName, score: Float) {
        self.name = name
        self.score = score
    }

    public var isFall: Bool { name.isFall }
}

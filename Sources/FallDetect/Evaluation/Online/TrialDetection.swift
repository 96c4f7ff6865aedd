/// A detection the online protocol placed in a trial: which trial and when, in seconds from its
/// first sample. What a report needs to point a person at the moment to look at.
public struct TrialDetection: Sendable, Hashable, Comparable {
    public var trial: SisFallTrialName
    public var seconds: Double

    public init(trial: SisFallTrialName, seconds: Double) {
        self.trial = trial
        self.seconds = seconds
    }

    public static func < (a: TrialDetection, b: TrialDetection) -> Bool {
        a.trial != b.trial ? a.trial < b.trial : a.seconds < b.seconds
    }
}

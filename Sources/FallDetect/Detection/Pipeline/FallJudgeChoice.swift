/// Which judge decides fall candidates in a profile.
public enum FallJudgeChoice: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Gradient-boosted trees trained on the SisFall development subjects (the most accurate).
    case learned
    /// The hand-made rules of the fall model, every threshold named (`MultiphaseFallParameters`).
    case multiphase

    public var description: String { rawValue }
}

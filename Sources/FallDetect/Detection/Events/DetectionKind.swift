/// What a detector saw. The workflow treats every kind as an emergency; the kind decides the
/// countdown and the words of the alert.
public enum DetectionKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A person fell: falling, impact, then lying (the fall model's phases).
    case fall
    /// A vehicle crash: a high-g impact while moving, then a stop.
    case crash
    /// The device fell freely for longer than a person's stumble lasts (a drop from height).
    case freeFall = "free-fall"
    /// The wearer asked for help with the keychain or a button.
    case manualSOS = "manual-sos"

    public var description: String { rawValue }
}

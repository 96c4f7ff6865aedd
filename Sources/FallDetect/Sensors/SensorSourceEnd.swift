/// Why a source's `run` returned.
public enum SensorSourceEnd: Sendable, Equatable {
    /// `shouldStop` asked it to.
    case stopped
    /// A recording ran out (and does not loop).
    case exhausted
}

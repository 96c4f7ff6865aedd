/// How fast a replay runs against the wall clock.
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
    /// As recorded: one second of data per second.
    case realTime
    /// N seconds of data per second (N > 0).
    case scaled(Double)
    /// No pacing at all; for evaluation and benchmarks.
    case asFastAsPossible

    /// Data seconds per wall second, or nil when unpaced.
    public var factor: Double? {
        switch self {
        case .realTime: 1
        case .scaled(let n): n
        case .asFastAsPossible: nil
        }
    }

    public var description: String {
        switch self {
        case .realTime: "real time"
        case .scaled(let n): "\(n)x"
        case .asFastAsPossible: "as fast as possible"
        }
    }
}

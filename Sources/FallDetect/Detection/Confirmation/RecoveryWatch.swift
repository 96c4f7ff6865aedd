/// Follows one fall detection until the wearer is upright again (recovered) or the window has
/// passed (stayed down). O(1) per frame, no allocation.
public struct RecoveryWatch: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Upright for `uprightSeconds` since the given time: the alert need not go out by itself.
        case recovered(since: Int64)
        /// Not upright for long enough within the window: the alert stands.
        case stayedDown
    }

    public let parameters: RecoveryParameters
    public let detectionNanoseconds: Int64
    var uprightSince: Int64?
    var finished = false

    public init(detectionNanoseconds: Int64, parameters: RecoveryParameters = RecoveryParameters()) throws(FallDetectError) {
        try parameters.validate()
        self.parameters = parameters
        self.detectionNanoseconds = detectionNanoseconds
    }

    /// Adds a frame after the detection; returns the outcome once, when it is known.
    public mutating func push(_ frame: MotionFrame) -> Outcome? {
        let t = frame.timestampNanoseconds
        guard !finished, t > detectionNanoseconds else { return nil }
        uprightSince = frame.tiltDegrees < parameters.uprightTilt ? (uprightSince ?? t) : nil
        if let since = uprightSince, Float(t - since) * 1e-9 >= parameters.uprightSeconds {
            finished = true
            return .recovered(since: since)
        }
        if Float(t - detectionNanoseconds) * 1e-9 >= parameters.windowSeconds {
            finished = true
            return .stayedDown
        }
        return nil
    }
}

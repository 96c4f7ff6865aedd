/// One phase of a detected event and when it began, so an alert can say what happened in order.
public struct DetectionPhase: Sendable, Hashable {
    /// The phases of the fall model (pre-fall, falling, impact, posture, resting) and of a crash.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        /// Balance lost: the body starts to move away from its usual pattern.
        case preFall = "pre-fall"
        /// Falling: acceleration drops below 1 g and the body moves down.
        case falling
        /// The largest acceleration of the event.
        case impact
        /// The trunk is found far from upright after the impact.
        case postureChange = "posture-change"
        /// The body has stopped moving.
        case resting
        /// Moving fast enough for the crash detector to arm (GNSS speed).
        case armed
        /// Speed has dropped to a stop after the impact.
        case stopped
    }

    public var name: Name
    /// On the samples' monotonic clock.
    public var timestampNanoseconds: Int64

    public init(_ name: Name, at timestampNanoseconds: Int64) {
        self.name = name
        self.timestampNanoseconds = timestampNanoseconds
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Follows a detection until the wearer has lain still long enough (confirmed: the resting phase
/// of the fall model), got up (cancelled), or the window ran out. O(1) per frame.
public struct StillnessConfirmation: Sendable {
    public enum Outcome: Sendable, Hashable {
        /// Still for `stillSeconds`: the event with its resting phase and seconds of stillness.
        case confirmed(DetectionEvent)
        /// Upright again for `uprightSeconds`.
        case gotUp(DetectionEvent)
        /// Neither within the window: the wearer moves but did not get up (crawling, struggling).
        case timedOut(DetectionEvent)
    }

    public let parameters: StillnessParameters
    public private(set) var event: DetectionEvent
    var mean: Float = 1
    var meanSquare: Float = 1
    var stillSince: Int64?
    var uprightSince: Int64?
    var finished = false

    public init(event: DetectionEvent, parameters: StillnessParameters = StillnessParameters()) throws(FallDetectError) {
        try parameters.validate()
        self.event = event
        self.parameters = parameters
    }

    /// Adds a frame after the detection; returns the outcome once, when it is known.
    public mutating func push(_ frame: MotionFrame) -> Outcome? {
        guard !finished, frame.timestampNanoseconds >= event.timestampNanoseconds else { return nil }
        let p = parameters
        // Exponential mean and mean square of |a| over ~0.5 s give its spread without a window.
        let alpha = 1 - exp(-frame.samplePeriod / 0.5)
        let m = frame.accelerationMagnitude
        mean += alpha * (m - mean)
        meanSquare += alpha * (m * m - meanSquare)
        let deviation = max(0, meanSquare - mean * mean).squareRoot()
        let t = frame.timestampNanoseconds
        let still = deviation < p.maximumDeviation && frame.angularRateMagnitude < p.maximumAngularRate
        stillSince = still ? (stillSince ?? t) : nil
        uprightSince = frame.tiltDegrees < p.uprightTilt ? (uprightSince ?? t) : nil
        if let since = stillSince, Float(t - since) * 1e-9 >= p.stillSeconds {
            finished = true
            event.phases.append(DetectionPhase(.resting, at: since))
            event.evidence.stillSeconds = Float(t - since) * 1e-9
            return .confirmed(event)
        }
        if let since = uprightSince, Float(t - since) * 1e-9 >= p.uprightSeconds {
            finished = true
            return .gotUp(event)
        }
        if Float(t - event.timestampNanoseconds) * 1e-9 >= p.windowSeconds {
            finished = true
            return .timedOut(event)
        }
        return nil
    }
}

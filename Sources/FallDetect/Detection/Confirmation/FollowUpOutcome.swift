/// What a stage after a fall detection concluded about it, and when. The workflow decides what
/// each means for the alert; `detectord replay` prints them.
public struct FollowUpOutcome: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The stillness confirmation: lay still long enough (the resting phase).
        case confirmed
        /// The stillness confirmation: upright again before lying still.
        case gotUp = "got up"
        /// The stillness confirmation: neither within its window (moving, not up).
        case timedOut = "timed out"
        /// The recovery check: sitting or standing again within its window.
        case recovered
        /// The recovery check: not up again within its window; the alert stands.
        case stayedDown = "stayed down"
    }

    public var kind: Kind
    /// The detection followed, with the resting phase and seconds still once confirmed.
    public var event: DetectionEvent
    /// When the outcome was known, on the samples' clock.
    public var timestampNanoseconds: Int64

    public init(kind: Kind, event: DetectionEvent, timestampNanoseconds: Int64) {
        self.kind = kind
        self.event = event
        self.timestampNanoseconds = timestampNanoseconds
    }

    /// The workflow input that reports this outcome, nil for a drop from height: a fall from a
    /// ladder or down stairs needs help whatever follows, so being up again must not withdraw it.
    public var workflowInput: WorkflowInput? { event.kind == .freeFall ? nil : .followUp(kind) }

    /// One line for terminals and logs: "recovered: the fall at 18.23 s, upright again".
    public func summary(origin: Int64 = 0) -> String {
        let at = Double(event.timestampNanoseconds - origin) / 1e9
        let detection = "the \(event.kind) at \((at * 100).rounded() / 100) s"
        switch kind {
        case .confirmed:
            let still = ((event.evidence.stillSeconds ?? 0) * 10).rounded() / 10
            return "confirmed: \(detection), lying still for \(still) s"
        case .gotUp: return "got up: \(detection), upright again before lying still"
        case .timedOut: return "timed out: \(detection), moving but not up; the fall's countdown is withdrawn"
        case .recovered: return "recovered: \(detection), sitting or standing again; the fall's countdown is withdrawn"
        case .stayedDown: return "stayed down: \(detection), not up again; the alert stands"
        }
    }
}

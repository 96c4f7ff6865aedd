/// Runs the stages a profile asks for after each fall detection: the stillness confirmation and
/// the recovery check, each once per detection. A new detection replaces the stages of the one
/// before (the gate keeps them 30 s apart, so that one was long settled or is the same event).
/// No allocation per frame.
public struct FallFollowUp: Sendable {
    public let confirmation: StillnessParameters?
    public let recovery: RecoveryParameters?
    var stillness: StillnessConfirmation?
    var watch: (event: DetectionEvent, watch: RecoveryWatch)?

    /// Throws `.invalidArgument` naming the bad parameter.
    public init(confirmation: StillnessParameters?, recovery: RecoveryParameters?) throws(FallDetectError) {
        try confirmation?.validate()
        try recovery?.validate()
        self.confirmation = confirmation
        self.recovery = recovery
    }

    /// Starts following `event` when it is a fall or a free fall.
    public mutating func start(_ event: DetectionEvent) {
        guard event.kind == .fall || event.kind == .freeFall else { return }
        // Parameters were validated at init.
        stillness = confirmation.flatMap { try? StillnessConfirmation(event: event, parameters: $0) }
        watch = recovery.flatMap { p in (try? RecoveryWatch(detectionNanoseconds: event.timestampNanoseconds, parameters: p)).map { (event, $0) } }
    }

    /// Adds a frame; appends to `outcomes` what the stages concluded with it.
    public mutating func push(_ frame: MotionFrame, into outcomes: inout [FollowUpOutcome]) {
        if frame.afterGap {
            // The samples broke off: a wearer who sat up just before, or lay still through it,
            // would be judged up again or neither still nor up on what came before. The stages end
            // without an outcome, so the alert stands.
            stillness = nil
            watch = nil
            return
        }
        let t = frame.timestampNanoseconds
        if let outcome = stillness?.push(frame) {
            stillness = nil
            switch outcome {
            case .confirmed(let e): outcomes.append(FollowUpOutcome(kind: .confirmed, event: e, timestampNanoseconds: t))
            case .gotUp(let e): outcomes.append(FollowUpOutcome(kind: .gotUp, event: e, timestampNanoseconds: t))
            case .timedOut(let e): outcomes.append(FollowUpOutcome(kind: .timedOut, event: e, timestampNanoseconds: t))
            }
        }
        if let event = watch?.event, let outcome = watch?.watch.push(frame) {
            watch = nil
            switch outcome {
            case .recovered: outcomes.append(FollowUpOutcome(kind: .recovered, event: event, timestampNanoseconds: t))
            case .stayedDown: outcomes.append(FollowUpOutcome(kind: .stayedDown, event: event, timestampNanoseconds: t))
            }
        }
    }
}

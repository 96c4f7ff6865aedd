/// How a detection enters the emergency workflow and what its messages say of it.
extension DetectionEvent {
    /// The workflow's trigger: a fall or a drop from height is an automatic fall.
    public var trigger: EmergencyTrigger {
        switch kind {
        case .fall, .freeFall: .automaticFall
        case .crash: .automaticCrash
        case .manualSOS: .manual
        }
    }

    /// The workflow input that starts the emergency.
    public var workflowInput: WorkflowInput { .detection(trigger) }

    /// The evidence as the emergency payload carries it (peak g, tilt, seconds still).
    public var payloadEvidence: EmergencyPayload.Evidence {
        EmergencyPayload.Evidence(
            peakG: evidence.peakAcceleration.map(Double.init), tiltDegrees: evidence.tiltDegrees.map(Double.init),
            stillnessSeconds: evidence.stillSeconds.map(Double.init))
    }
}

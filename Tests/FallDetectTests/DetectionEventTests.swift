import Testing

@testable import FallDetect

@Suite struct DetectionEventTests {
    static func event(_ kind: DetectionKind) -> DetectionEvent {
        var evidence = DetectionEvidence()
        evidence.peakAcceleration = 5.5
        evidence.tiltDegrees = 84
        evidence.stillSeconds = 12
        evidence.speedBefore = 25 / 3.6
        return DetectionEvent(
            kind: kind, detector: "learned", confidence: 0.93, timestampNanoseconds: 3_000_000_000,
            phases: [DetectionPhase(.falling, at: 2_000_000_000), DetectionPhase(.impact, at: 2_400_000_000)], evidence: evidence)
    }

    @Test func eachKindStartsTheWorkflowWithItsTrigger() {
        #expect(Self.event(.fall).trigger == .automaticFall)
        #expect(Self.event(.freeFall).trigger == .automaticFall)
        #expect(Self.event(.crash).trigger == .automaticCrash)
        #expect(Self.event(.manualSOS).trigger == .manual)
        guard case .detection(let trigger) = Self.event(.crash).workflowInput else {
            Issue.record("a detection must enter the workflow as .detection")
            return
        }
        #expect(trigger == .automaticCrash)
    }

    @Test func theAlertCarriesWhatTheDetectorSaw() {
        let e = Self.event(.fall)
        #expect(e.payloadEvidence.peakG == 5.5)
        #expect(e.payloadEvidence.tiltDegrees == 84)
        #expect(e.payloadEvidence.stillnessSeconds == 12)
        #expect(e.phase(.impact) == 2_400_000_000)
        #expect(e.phase(.resting) == nil)
        #expect(e.summary == "fall (learned, confidence 0.93): impact 5.5 g, tilt 84°, still 12.0 s, speed 25 km/h")
    }
}

/// A streaming fall detector: the candidate tracker finds impacts and measures the phases around
/// them, the judge decides, the gate keeps one detection per event. Feed every frame in order.
public struct FallDetector: Sendable {
    public var judge: any FallJudge
    public private(set) var tracker: FallCandidateTracker
    public var gate: DetectionGate

    public init(judge: any FallJudge, candidates: FallCandidateSettings = FallCandidateSettings(), gate: DetectionGate = DetectionGate()) throws(FallDetectError) {
        self.judge = judge
        tracker = try FallCandidateTracker(settings: candidates)
        self.gate = gate
    }

    public var name: String { judge.name }

    /// Adds a frame; returns a detection when a judged candidate passes and the gate is open.
    public mutating func push(_ frame: MotionFrame) -> DetectionEvent? {
        guard let candidate = tracker.push(frame) else { return nil }
        return judge(candidate)
    }

    /// The detection a candidate gives, if any (gate included).
    public mutating func judge(_ candidate: FallCandidate) -> DetectionEvent? {
        let score = judge.score(candidate)
        guard score >= judge.threshold, gate.admit(candidate.decisionNanoseconds) else { return nil }
        return DetectionEvent(
            kind: .fall, detector: judge.name, confidence: judge.confidence(score: score),
            timestampNanoseconds: candidate.decisionNanoseconds, phases: candidate.phases, evidence: candidate.evidence)
    }

    public mutating func reset() {
        tracker.reset()
        gate.reset()
    }
}

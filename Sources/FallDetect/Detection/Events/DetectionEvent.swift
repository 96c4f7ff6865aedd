/// A detection: what happened, how sure the detector is, when each phase began, and the evidence,
/// so that an alert can explain itself and a replay can be checked against labels.
public struct DetectionEvent: Sendable, Hashable {
    public var kind: DetectionKind
    /// The detector that decided, e.g. "multiphase" or "crash".
    public var detector: String
    /// 0…1: how strongly the evidence exceeds what the detector needs (1 = far beyond).
    public var confidence: Float
    /// When the detector decided, on the samples' monotonic clock. Latency is measured to here.
    public var timestampNanoseconds: Int64
    /// Phases in time order.
    public var phases: [DetectionPhase]
    public var evidence: DetectionEvidence

    public init(
        kind: DetectionKind, detector: String, confidence: Float, timestampNanoseconds: Int64,
        phases: [DetectionPhase] = [], evidence: DetectionEvidence = DetectionEvidence()
    ) {
        self.kind = kind
        self.detector = detector
        self.confidence = confidence
        self.timestampNanoseconds = timestampNanoseconds
        self.phases = phases
        self.evidence = evidence
    }

    /// The start of a phase, nil when the event has none of that name.
    public func phase(_ name: DetectionPhase.Name) -> Int64? {
        phases.first { $0.name == name }?.timestampNanoseconds
    }

    /// One line for terminals and logs: "fall (multiphase, 0.93): impact 5.76 g, tilt 84°, …".
    public var summary: String {
        func fixed(_ v: Float, _ digits: Int) -> String {
            var scale: Float = 1
            for _ in 0..<digits { scale *= 10 }
            let r = (v * scale).rounded() / scale
            var text = "\(r)"
            if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
            return text
        }
        var parts: [String] = []
        let e = evidence
        if let g = e.peakAcceleration { parts.append("impact \(fixed(g, 2)) g\(e.saturated ? " (clipped)" : "")") }
        if let g = e.minimumAcceleration { parts.append("min \(fixed(g, 2)) g") }
        if let s = e.freeFallSeconds, s > 0 { parts.append("free fall \(fixed(s, 2)) s") }
        if let v = e.verticalVelocity { parts.append("vertical \(fixed(v, 2)) m/s") }
        if let t = e.tiltDegrees { parts.append("tilt \(fixed(t, 0))°") }
        if let s = e.stillSeconds { parts.append("still \(fixed(s, 1)) s") }
        if let v = e.speedBefore { parts.append("speed \(fixed(Float(v * 3.6), 0)) km/h") }
        if let v = e.speedAfter { parts.append("then \(fixed(Float(v * 3.6), 0)) km/h") }
        return "\(kind) (\(detector), confidence \(fixed(confidence, 2)))" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }
}

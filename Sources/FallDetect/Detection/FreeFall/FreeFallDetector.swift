/// Detects a long free fall (a drop from a ladder, a balcony, down stairs) the moment it has
/// lasted `minimumSeconds`, before the impact: a fall from height needs help whatever follows.
public struct FreeFallDetector: Sendable {
    public let parameters: FreeFallParameters
    public static let name = "free-fall"
    var start: Int64?
    var lowest: Float = .infinity
    var reported = false

    public init(parameters: FreeFallParameters = FreeFallParameters()) throws(FallDetectError) {
        try parameters.validate()
        self.parameters = parameters
    }

    public mutating func push(_ frame: MotionFrame) -> DetectionEvent? {
        // Low readings on both sides of a break in the samples are two stretches: the break (a
        // FIFO overflow loses 0.4 s at 200 Hz) is not weightlessness.
        if frame.afterGap { reset() }
        guard frame.accelerationMagnitude < parameters.threshold else {
            start = nil
            lowest = .infinity
            reported = false
            return nil
        }
        let began = start ?? frame.timestampNanoseconds
        start = began
        lowest = min(lowest, frame.accelerationMagnitude)
        // Seconds covered by the stretch, counting this sample's period; a microsecond of slack
        // so that Float periods summing to exactly the minimum count as reaching it.
        let seconds = Float(Double(frame.timestampNanoseconds - began) * 1e-9 + Double(frame.samplePeriod))
        guard !reported, seconds + 1e-6 >= parameters.minimumSeconds else { return nil }
        reported = true
        var evidence = DetectionEvidence()
        evidence.minimumAcceleration = lowest
        evidence.freeFallSeconds = seconds
        // Drop height so far, g·t²/2, decides the confidence: 2 m and more is 1.
        let height = 9.80665 * seconds * seconds / 2
        return DetectionEvent(
            kind: .freeFall, detector: Self.name, confidence: min(1, 0.5 + height / 4), timestampNanoseconds: frame.timestampNanoseconds,
            phases: [DetectionPhase(.falling, at: began)], evidence: evidence)
    }

    public mutating func reset() {
        start = nil
        lowest = .infinity
        reported = false
    }
}

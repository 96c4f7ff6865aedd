/// The hand-made judge: every phase of the fall model must be present (falling, impact, posture
/// change: lying, or the body turned far). Its score is the impact in g when the other phases hold and 0 otherwise, so
/// its threshold is `minimumImpact` and a sweep of it traces the detector's ROC curve.
public struct MultiphaseFallJudge: FallJudge {
    public var parameters: MultiphaseFallParameters
    public var name: String { "multiphase" }

    public init(parameters: MultiphaseFallParameters = MultiphaseFallParameters()) throws(FallDetectError) {
        try parameters.validate()
        self.parameters = parameters
    }

    public var threshold: Float {
        get { parameters.minimumImpact }
        set { parameters.minimumImpact = newValue }
    }

    public func score(_ c: FallCandidate) -> Float {
        let p = parameters
        // Posture: lying after having been up, or turned far whichever way (a fall backwards
        // that ends half-sitting tilts the trunk little but turns it much).
        let posture = (c.maximumTiltAfter >= p.lyingTilt && c.tiltChange >= p.minimumTiltChange) || c.attitudeChange >= p.minimumAttitudeChange
        let phases = c.minimumAccelerationBefore <= p.maximumFallingAcceleration && posture
        // A clipped impact reads full scale (16 g on SisFall's part), far above any threshold.
        return phases ? c.peakAcceleration : 0
    }

    /// Half from passing at all, the rest from the impact's margin (twice the threshold is 1).
    public func confidence(score: Float) -> Float {
        guard score >= threshold, threshold > 0 else { return 0 }
        return min(1, 0.5 + 0.5 * (score / threshold - 1))
    }
}

/// A stress test for falls softer than the development subjects' (`detectord bench --soften`):
/// from `lead` before a fall trial's labelled fall to `follow` after its impact, every
/// acceleration's departure from 1 g is scaled by `scale`, direction kept. At 0.5 a 6 g impact
/// becomes 3.5 g and a 0.2 g weightless dip 0.6 g: less drop, less impact, the same turn of the
/// body (the gyroscope is left alone, so attitude stays consistent).
///
/// Older people fall more slowly and hit more softly than young volunteers falling onto a mat,
/// and the development split cannot show them falling. This is not a model of their falls; it
/// measures how much of a detector's sensitivity rests on hard, fast falls.
public struct FallSoftening: Sendable, Hashable {
    /// Factor on ||a| − 1 g|, in (0, 1].
    public let scale: Float
    /// Seconds before the first sample labelled FALL.
    public let lead: Float
    /// Seconds after the impact (the largest |a| up to 0.4 s past the last sample labelled FALL).
    public let follow: Float

    public init(scale: Float, lead: Float = 0.1, follow: Float = 0.3) throws(FallDetectError) {
        try FallDetectError.require(scale.isFinite && scale > 0 && scale <= 1, "soften", "must lie in (0, 1], got \(scale)")
        try FallDetectError.requireNonNegative(lead, "lead")
        try FallDetectError.requireNonNegative(follow, "follow")
        self.scale = scale
        self.lead = lead
        self.follow = follow
    }

    /// The trial's samples, softened where its labels mark a fall; unchanged otherwise (ADL, no
    /// labels, or a scale of 1).
    public func apply(to trial: SisFallTrial) -> [IMUSample] {
        guard scale < 1, let window = FallStressWindow.range(in: trial, lead: lead, follow: follow) else { return trial.samples }
        var samples = trial.samples
        for i in window {
            let m = samples[i].accelerationMagnitude
            guard m > 1e-3 else { continue }
            samples[i].acceleration *= (1 + scale * (m - 1)) / m
        }
        return samples
    }
}

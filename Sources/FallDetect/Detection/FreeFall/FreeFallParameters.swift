/// When weightlessness is long enough to be a drop from height rather than a step, a jump or a
/// fall from standing.
public struct FreeFallParameters: Sendable, Hashable {
    /// |a| below this is free fall, g.
    public var threshold: Float
    /// Seconds of uninterrupted free fall that make a detection. 0.4 s is a drop of 0.8 m
    /// (h = g·t²/2). On the SisFall development split the longest stretch under 0.3 g in any
    /// daily activity is 0.31 s (a jump, D19) and in any fall from standing 0.17 s.
    public var minimumSeconds: Float

    public init(threshold: Float = 0.3, minimumSeconds: Float = 0.4) {
        self.threshold = threshold
        self.minimumSeconds = minimumSeconds
    }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(threshold.isFinite && threshold > 0 && threshold < 1, "threshold", "must lie in (0, 1) g, got \(threshold)")
        try FallDetectError.require(
            minimumSeconds.isFinite && minimumSeconds > 0 && minimumSeconds <= 5, "minimumSeconds", "must lie in (0, 5] s, got \(minimumSeconds)")
    }
}

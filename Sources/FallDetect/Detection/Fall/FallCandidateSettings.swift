/// When an impact becomes a candidate and which spans around it are measured. Shared by both fall
/// detectors; every value is in seconds or g.
public struct FallCandidateSettings: Sendable, Hashable {
    /// |a| at or above this starts a candidate, g. Low on purpose: the detectors decide.
    public var impactThreshold: Float
    /// Seconds after the impact before the posture window opens (the body still bounces).
    public var postureDelay: Float
    /// Seconds after the impact at which the candidate is judged; the posture window is
    /// [postureDelay, decisionDelay]. It is the detection latency from the impact. A larger
    /// peak before then becomes the impact and restarts the wait.
    public var decisionDelay: Float
    /// |a| under this counts as falling (weightless), g.
    public var freeFallThreshold: Float
    /// Sample rate of the frames, Hz: spans in seconds become sample counts.
    public var sampleRate: Float
    /// Tilt at and above which the body lies, degrees. An impact after lying throughout 3 s to
    /// 1 s before it, without a drop faster than `lyingDropVelocity`, is a turn in bed and gives no
    /// candidate (`FallCandidate.isTurnWhileLying`). Above 180 the check is off.
    public var lyingTilt: Float
    /// Downward speed that tells a fall out of bed from a turn in it, m/s (negative down). A roll
    /// off a 0.2 m bed, the lowest made for people at risk of falling, reads −1.5 m/s through the
    /// frame builder; −1.25 m/s leaves a margin under it.
    public var lyingDropVelocity: Float

    public init(
        impactThreshold: Float = 1.6, postureDelay: Float = 0.2, decisionDelay: Float = 0.6,
        freeFallThreshold: Float = 0.6, sampleRate: Float = 200, lyingTilt: Float = 60, lyingDropVelocity: Float = -1.25
    ) {
        self.impactThreshold = impactThreshold
        self.postureDelay = postureDelay
        self.decisionDelay = decisionDelay
        self.freeFallThreshold = freeFallThreshold
        self.sampleRate = sampleRate
        self.lyingTilt = lyingTilt
        self.lyingDropVelocity = lyingDropVelocity
    }

    /// Seconds before the impact over which the pre-fall posture is averaged: [-2.5 s, -1.5 s],
    /// ending where the falling span begins.
    static let postureBefore: (start: Float, end: Float) = (2.5, 1.5)
    /// Seconds before the impact searched for the falling phase. A young volunteer's fall onto a
    /// mat takes well under a second; 1.5 s also holds a fall half as fast again (an older
    /// person's, or one slowed by a grab at furniture), whose descent 1 s would cut short.
    static let fallingSpan: Float = 1.5
    /// Seconds before the impact over which activity is measured: [-3 s, -0.5 s].
    static let activitySpan: (start: Float, end: Float) = (3, 0.5)
    /// Seconds before the impact over which the body must have lain for a turn in bed: [-3 s, -1 s].
    static let lyingSpan: (start: Float, end: Float) = (3, 1)
    /// Seconds from the stream's start before the AHRS's tilt is trusted: it starts from upright
    /// and needs about a second to settle (SisFall's lying trials read 70° of 72° at 0.5 s).
    static let settlingSeconds: Float = 1

    func samples(_ seconds: Float) -> Int { max(1, Int((seconds * sampleRate).rounded())) }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(SensorInfo.plausibleSampleRates.contains(Double(sampleRate)), "sampleRate", "must lie in 10…10000 Hz, got \(sampleRate)")
        try FallDetectError.require(impactThreshold.isFinite && impactThreshold > 1, "impactThreshold", "must exceed 1 g, got \(impactThreshold)")
        try FallDetectError.requireNonNegative(postureDelay, "postureDelay")
        try FallDetectError.require(
            decisionDelay.isFinite && decisionDelay > postureDelay && decisionDelay <= 10, "decisionDelay",
            "must lie after postureDelay (\(postureDelay) s) and within 10 s, got \(decisionDelay)")
        try FallDetectError.require(
            freeFallThreshold.isFinite && freeFallThreshold > 0 && freeFallThreshold < 1, "freeFallThreshold",
            "must lie in (0, 1) g, got \(freeFallThreshold)")
        try FallDetectError.requirePositive(lyingTilt, "lyingTilt")
        try FallDetectError.require(lyingDropVelocity.isFinite && lyingDropVelocity < 0, "lyingDropVelocity", "must be negative (down), got \(lyingDropVelocity) m/s")
    }
}

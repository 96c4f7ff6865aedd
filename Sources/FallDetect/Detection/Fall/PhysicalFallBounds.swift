/// What every fall physically shows, as bounds no judge may cross: a learned model scores what it
/// was shown, and nothing it was shown stops it from scoring a movement no fall makes. A candidate
/// outside these bounds is not a fall whatever the model says (`LearnedFallJudge` scores it 0).
///
/// Each bound rests on a physical quantity and a published figure, not on the folds
/// (`docs/detectors.md`, "Physical bounds"):
/// - Descent and impact. A body lowered under control (lying down, sitting down hard, a device
///   taken off and set down) descends slower than 0.7 m/s, the trunk velocity that separated
///   falls from daily activities in Bourke et al. 2010 (J Biomech 43:3051), and so lands softly: at
///   that speed, stopped over a contact of 60 ms or more (a bed, a chair, a hand), the trunk reads
///   at most 1 g + 0.7 / (9.81 · 0.06) ≈ 2.2 g. A fall is faster, or lands harder, or both.
/// - Posture. A fall leaves the trunk turned (`FallCandidate.attitudeChange`) or lying: a movement
///   that ends as it began, upright and unturned, left nobody on the ground. The bound is looser
///   than the 60° of lying in Bourke et al. 2010 so that a fall ending half-sitting still counts.
/// - A turn in bed is no fall (`FallCandidate.isTurnWhileLying`, applied by the tracker).
public struct PhysicalFallBounds: Sendable, Hashable {
    /// The rule a candidate broke, for logs and reports.
    public enum Violation: String, Sendable, Hashable, CaseIterable {
        /// Descent slower than `controlledDescentVelocity` and impact under `controlledImpact`.
        case controlledLowering = "controlled lowering"
        /// Trunk turned less than `minimumAttitudeChange` and never as far as `lyingTilt`.
        case unchangedPosture = "unchanged posture"
    }

    /// Downward trunk velocity (m/s, negative down) at or slower than which a descent counts as
    /// controlled.
    public var controlledDescentVelocity: Float
    /// Impact (g) under which a controlled descent's landing stays; a clipped impact is never under it.
    public var controlledImpact: Float
    /// Smallest turn of the trunk's up direction (degrees) a fall leaves …
    public var minimumAttitudeChange: Float
    /// … unless the trunk lies at least this far from upright after the impact (degrees).
    public var lyingTilt: Float
    /// False turns every bound off: the bench's measure of what the bounds change.
    public var isEnabled: Bool

    public init(
        controlledDescentVelocity: Float = -0.7, controlledImpact: Float = 2.2, minimumAttitudeChange: Float = 20, lyingTilt: Float = 60,
        isEnabled: Bool = true
    ) {
        self.controlledDescentVelocity = controlledDescentVelocity
        self.controlledImpact = controlledImpact
        self.minimumAttitudeChange = minimumAttitudeChange
        self.lyingTilt = lyingTilt
        self.isEnabled = isEnabled
    }

    /// The bounds as shipped.
    public static let standard = PhysicalFallBounds()
    /// No bounds: the judge alone.
    public static let off = PhysicalFallBounds(isEnabled: false)

    /// The first bound `candidate` breaks, nil when it may be a fall.
    public func violation(_ c: FallCandidate) -> Violation? {
        guard isEnabled else { return nil }
        if c.minimumVerticalVelocity > controlledDescentVelocity, c.peakAcceleration < controlledImpact, !c.saturated {
            return .controlledLowering
        }
        if c.attitudeChange < minimumAttitudeChange, c.maximumTiltAfter < lyingTilt { return .unchangedPosture }
        return nil
    }

    public func admits(_ c: FallCandidate) -> Bool { violation(c) == nil }

    /// Throws `.invalidArgument` naming the field that is out of range.
    public func validate() throws(FallDetectError) {
        try FallDetectError.require(
            controlledDescentVelocity.isFinite && controlledDescentVelocity < 0, "controlledDescentVelocity",
            "must be negative (down), got \(controlledDescentVelocity) m/s")
        try FallDetectError.require(controlledImpact.isFinite && controlledImpact >= 1, "controlledImpact", "must be at least 1 g, got \(controlledImpact)")
        try FallDetectError.require(
            minimumAttitudeChange.isFinite && minimumAttitudeChange >= 0 && minimumAttitudeChange <= 180, "minimumAttitudeChange",
            "must lie in [0, 180]°, got \(minimumAttitudeChange)")
        try FallDetectError.require(lyingTilt.isFinite && lyingTilt > 0 && lyingTilt <= 180, "lyingTilt", "must lie in (0, 180]°, got \(lyingTilt)")
    }
}

/// A named set of detector parameters for one way of moving about. Each detector is nil when it
/// does not fit the activity (a car passenger does not "fall"; a walker has no vehicle to crash).
public struct DetectionProfile: Sendable, Hashable {
    public var name: String
    public var summary: String
    /// Fall detection: the judge and its parameters.
    public var fall: FallJudgeChoice?
    public var multiphase: MultiphaseFallParameters
    /// Probability threshold of the learned judge.
    public var learnedThreshold: Float
    /// What the learned judge may call a fall at most (`PhysicalFallBounds`).
    public var fallBounds: PhysicalFallBounds = .standard
    /// When the device counts as taken off (`WearMonitor`).
    public var wear = WearParameters()
    public var candidates: FallCandidateSettings
    public var freeFall: FreeFallParameters?
    public var crash: CrashDetectorParameters?
    /// The stage after a fall detection; nil sends the alert at once (its countdown still runs).
    public var confirmation: StillnessParameters?
    /// The recovery check after a fall detection; nil reports none.
    public var recovery: RecoveryParameters?
    /// Seconds between two detections of one event.
    public var refractorySeconds: Double
    public var sensitivity: DetectionSensitivity

    public init(
        name: String, summary: String, fall: FallJudgeChoice?, multiphase: MultiphaseFallParameters = MultiphaseFallParameters(),
        learnedThreshold: Float = 0.5, candidates: FallCandidateSettings = FallCandidateSettings(), freeFall: FreeFallParameters?,
        crash: CrashDetectorParameters?, confirmation: StillnessParameters?, recovery: RecoveryParameters? = nil, refractorySeconds: Double = 30,
        sensitivity: DetectionSensitivity = .standard
    ) {
        self.name = name
        self.summary = summary
        self.fall = fall
        self.multiphase = multiphase
        self.learnedThreshold = learnedThreshold
        self.candidates = candidates
        self.freeFall = freeFall
        self.crash = crash
        self.confirmation = confirmation
        self.recovery = recovery
        self.refractorySeconds = refractorySeconds
        self.sensitivity = sensitivity
    }

    /// Walking and daily life, older people included: falls (learned), long free falls, no
    /// crash detector. Stillness confirmation off: the countdown already lets the wearer cancel,
    /// and an older person who fell may move without being able to get up. The recovery check
    /// reports a wearer who is up again.
    public static let walking = DetectionProfile(
        name: "walking", summary: "daily life and walking, older people included: falls and drops from height",
        fall: .learned, freeFall: FreeFallParameters(), crash: nil, confirmation: nil, recovery: RecoveryParameters())

    /// Cycling: crashes (armed from 15 km/h) and falls when off the bike or riding slowly.
    public static let cycling = DetectionProfile(
        name: "cycling", summary: "bicycle: crashes armed from 15 km/h, falls at low speed",
        fall: .learned, freeFall: FreeFallParameters(), crash: .cycling, confirmation: StillnessParameters(stillSeconds: 10),
        recovery: RecoveryParameters())

    /// Motorcycling: crashes (6 g, armed from 20 km/h); no fall detector, since a rider's trunk
    /// tilts and bounces like a fall in every bend and on every bump.
    public static let motorcycling = DetectionProfile(
        name: "motorcycling", summary: "motorcycle: crashes armed from 20 km/h",
        fall: nil, freeFall: nil, crash: .motorcycling, confirmation: nil)

    /// Car: crashes (4 g, armed from 24 km/h) only.
    public static let car = DetectionProfile(
        name: "car", summary: "car: crashes armed from 24 km/h", fall: nil, freeFall: nil, crash: .car, confirmation: nil)

    public static let all: [DetectionProfile] = [.walking, .cycling, .motorcycling, .car]

    /// The built-in profile of that name, nil when there is none.
    public static func named(_ name: String) -> DetectionProfile? { all.first { $0.name == name.lowercased() } }

    /// The same profile moved along its detectors' ROC curves.
    public func with(sensitivity: DetectionSensitivity) -> DetectionProfile {
        var p = self
        let scale = sensitivity.thresholdScale / self.sensitivity.thresholdScale
        p.multiphase.minimumImpact = max(1.1, multiphase.minimumImpact * scale)
        p.learnedThreshold = sensitivity.learnedThreshold
        if var crash = p.crash {
            crash.impactThreshold = max(1.5, crash.impactThreshold * scale)
            p.crash = crash
        }
        if var freeFall = p.freeFall {
            freeFall.minimumSeconds = max(0.2, freeFall.minimumSeconds * scale)
            p.freeFall = freeFall
        }
        p.sensitivity = sensitivity
        return p
    }
}

/// One trial as the online protocol needs it: who and what, how long, where the labelled fall
/// lies, and the fall candidates the streaming tracker found in it (in time order). Detectors are
/// then judged over the candidates without running fusion again.
public struct OnlineTrial: Sendable {
    public var name: SisFallTrialName
    public var samples: Int
    public var seconds: Double
    /// The labelled FALL span (label 2) on the samples' clock, nil for ADL trials and for falls
    /// without labels.
    public var fallSpan: ClosedRange<Int64>?
    public var candidates: [FallCandidate]
    /// Per candidate, when the stillness confirmation stage confirmed it (the wearer lay still
    /// long enough before the trial ended), nil when it did not.
    public var confirmations: [Int64?]
    /// Per candidate, per entry of `RecoveryParameters.grid`, when the recovery check found the
    /// wearer upright again; nil when they stayed down (or the trial ended first).
    public var recoveries: [[Int64?]]
    /// The paper's C8 feature over the trial (g), one value per `baselinePeriodNanoseconds`, each
    /// with the timestamp of its sample: how the paper's baseline would run online.
    public var baseline: [(timestamp: Int64, value: Float)]

    public init(
        name: SisFallTrialName, samples: Int, seconds: Double, fallSpan: ClosedRange<Int64>?, candidates: [FallCandidate],
        confirmations: [Int64?]? = nil, recoveries: [[Int64?]]? = nil, baseline: [(timestamp: Int64, value: Float)] = []
    ) {
        self.name = name
        self.samples = samples
        self.seconds = seconds
        self.fallSpan = fallSpan
        self.candidates = candidates
        self.confirmations = confirmations ?? [Int64?](repeating: nil, count: candidates.count)
        self.recoveries = recoveries ?? [[Int64?]](repeating: [Int64?](repeating: nil, count: RecoveryParameters.grid.count), count: candidates.count)
        self.baseline = baseline
    }

    /// From a trial's labels: the first to the last sample labelled 2.
    public static func fallSpan(labels: [UInt8]?, samplePeriodNanoseconds: Int64) -> ClosedRange<Int64>? {
        guard let labels, let first = labels.firstIndex(of: 2), let last = labels.lastIndex(of: 2) else { return nil }
        return Int64(first) * samplePeriodNanoseconds...Int64(last) * samplePeriodNanoseconds
    }

    /// Whether a detection at `t` counts for the fall: inside the span or up to `tolerance`
    /// seconds after it.
    public func isInFallWindow(_ t: Int64, tolerance: Double) -> Bool {
        guard name.isFall, let span = fallSpan else { return false }
        return t >= span.lowerBound && t <= span.upperBound + Int64(tolerance * 1e9)
    }
}

import Synchronization

/// Runs the streaming front end (AHRS fusion, motion frames, the fall candidate tracker) over
/// every trial of a SisFall folder on all cores, keeping only what the online protocol needs.
public struct OnlineScan: Sendable {
    public let trials: [OnlineTrial]
    public let settings: FallCandidateSettings
    /// One core's seconds spent in fusion and tracking, summed over trials.
    public let computeSeconds: Double
    /// What loading noticed (missing trials, label quirks, unreadable files).
    public let notices: [String]
    /// Fall trials that had no label file, so no fall span: the online protocol cannot score them.
    public let fallsWithoutLabels: [SisFallTrialName]

    public var samples: Int { trials.reduce(0) { $0 + $1.samples } }

    public init(
        dataset: SisFallDataset, settings: FallCandidateSettings = FallCandidateSettings(), cache: TrialCache? = nil, workers: Int? = nil
    ) throws(FallDetectError) {
        try settings.validate()
        let collected = Mutex<(trials: [OnlineTrial], seconds: Double, unlabelled: [SisFallTrialName])>(([], 0, []))
        let notices = dataset.forEachTrial(cache: cache, workers: workers) { trial in
            let clock = ContinuousClock()
            let start = clock.now
            let candidates = Self.candidates(in: trial.samples, settings: settings)
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let span = OnlineTrial.fallSpan(labels: trial.labels, samplePeriodNanoseconds: SisFallTrial.samplePeriodNanoseconds)
            let row = OnlineTrial(
                name: trial.name, samples: trial.samples.count, seconds: Double(trial.samples.count) / Double(settings.sampleRate),
                fallSpan: span, candidates: candidates)
            collected.withLock { state in
                if trial.name.isFall, span == nil { state.unlabelled.append(trial.name) } else { state.trials.append(row) }
                state.seconds += seconds
            }
        }
        let (trials, seconds, unlabelled) = collected.withLock { ($0.trials, $0.seconds, $0.unlabelled) }
        self.trials = trials.sorted { $0.name < $1.name }
        self.settings = settings
        computeSeconds = seconds
        self.notices = notices
        fallsWithoutLabels = unlabelled.sorted()
    }

    /// The candidates the daemon's front end finds in `samples` (SisFall's ADXL345, ±16 g).
    public static func candidates(in samples: [IMUSample], settings: FallCandidateSettings) -> [FallCandidate] {
        var frames = MotionFrameBuilder(sampleRate: settings.sampleRate, accelerometerRange: 16)
        // Settings were validated by the caller.
        guard var tracker = try? FallCandidateTracker(settings: settings) else { return [] }
        var found: [FallCandidate] = []
        for sample in samples {
            if let c = tracker.push(frames.push(sample)) { found.append(c) }
        }
        return found
    }
}

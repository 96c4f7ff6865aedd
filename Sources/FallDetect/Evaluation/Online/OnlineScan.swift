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
    /// Trials whose gyroscope reported turns no body makes, so that their tilt followed the
    /// accelerometer for a while (`GyroscopeGuard`).
    public let suspectGyroscope: [SisFallTrialName]

    public var samples: Int { trials.reduce(0) { $0 + $1.samples } }

    /// The confirmation stage as the bench measures it. SisFall trials end 3–12 s after the impact
    /// (median 8.5 s), so it asks for 2 s of stillness within 5 s; the daemon's default waits longer.
    public static let benchConfirmation = StillnessParameters(stillSeconds: 2, windowSeconds: 5)

    public let confirmation: StillnessParameters
    /// Every how many samples one was kept (1: SisFall's 200 Hz; 2: 100 Hz, as many IMUs run).
    public let decimation: Int
    /// The stress test applied to the fall trials, if any.
    public let softening: FallSoftening?
    public let slowing: FallSlowing?

    /// `fallsOnly` leaves the ADL trials out: training copies of the falls need nothing else. One
    /// stress test at a time: `softening` or `slowing`.
    public init(
        dataset: SisFallDataset, settings: FallCandidateSettings = FallCandidateSettings(),
        confirmation: StillnessParameters = OnlineScan.benchConfirmation, decimation: Int = 1, softening: FallSoftening? = nil,
        slowing: FallSlowing? = nil, accelerometerRange: Float = 16, fallsOnly: Bool = false, cache: TrialCache? = nil, workers: Int? = nil
    ) throws(FallDetectError) {
        guard accelerometerRange.isFinite, accelerometerRange >= 2, accelerometerRange <= 16 else {
            throw FallDetectError(.invalidArgument, "the accelerometer's range must lie in 2…16 g, got \(accelerometerRange)", field: "range")
        }
        guard (1...20).contains(decimation) else {
            throw FallDetectError(.invalidArgument, "decimation must lie in 1…20, got \(decimation)", field: "decimation")
        }
        guard softening == nil || slowing == nil else {
            throw FallDetectError(.invalidArgument, "soften and slow are separate stress tests; give one", field: "slow")
        }
        var decimated = settings
        decimated.sampleRate = Float(1e9 / Double(SisFallTrial.samplePeriodNanoseconds)) / Float(decimation)
        let settings = decimated
        try settings.validate()
        try confirmation.validate()
        let collected = Mutex<(trials: [OnlineTrial], seconds: Double, unlabelled: [SisFallTrialName], suspect: [SisFallTrialName])>(
            ([], 0, [], []))
        let notices = dataset.forEachTrial(cache: cache, workers: workers) { trial in
            if fallsOnly, !trial.name.isFall { return }
            let clock = ContinuousClock()
            let start = clock.now
            // Keeping every n-th sample is what a sensor running at 200/n Hz would have delivered,
            // but for its own anti-aliasing filter.
            let (full, labels) = slowing?.apply(to: trial) ?? (softening?.apply(to: trial) ?? trial.samples, trial.labels)
            var samples = decimation == 1 ? full : stride(from: 0, to: full.count, by: decimation).map { full[$0] }
            // A smaller part clips what SisFall's ±16 g one recorded: each axis at its full scale.
            if accelerometerRange < 16 {
                for i in samples.indices {
                    samples[i].acceleration = samples[i].acceleration.clamped(
                        lowerBound: SIMD3(repeating: -accelerometerRange), upperBound: SIMD3(repeating: accelerometerRange))
                }
            }
            let found = Self.candidates(in: samples, settings: settings, confirmation: confirmation, accelerometerRange: accelerometerRange)
            let baseline = Self.baseline(in: samples, sampleRate: settings.sampleRate)
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let span = OnlineTrial.fallSpan(labels: labels, samplePeriodNanoseconds: SisFallTrial.samplePeriodNanoseconds)
            let row = OnlineTrial(
                name: trial.name, samples: samples.count, seconds: Double(samples.count) / Double(settings.sampleRate),
                fallSpan: span, candidates: found.candidates, confirmations: found.confirmations, recoveries: found.recoveries,
                baseline: baseline)
            collected.withLock { state in
                if trial.name.isFall, span == nil { state.unlabelled.append(trial.name) } else { state.trials.append(row) }
                if found.suspectGyroscopeEpisodes > 0 { state.suspect.append(trial.name) }
                state.seconds += seconds
            }
        }
        let (trials, seconds, unlabelled, suspect) = collected.withLock { ($0.trials, $0.seconds, $0.unlabelled, $0.suspect) }
        self.trials = trials.sorted { $0.name < $1.name }
        self.settings = settings
        self.confirmation = confirmation
        self.decimation = decimation
        self.softening = softening
        self.slowing = slowing
        computeSeconds = seconds
        self.notices = notices
        fallsWithoutLabels = unlabelled.sorted()
        suspectGyroscope = suspect.sorted()
    }

    /// Values of the series kept per second for the baseline: 20, enough for a 1 s window's feature.
    static let baselineRate = 20

    /// The paper's C8 over `samples`, every 1/20 s, with the timestamps of the samples it ends at.
    public static func baseline(in samples: [IMUSample], sampleRate: Float) -> [(timestamp: Int64, value: Float)] {
        let parameters = SisFallFeatureParameters(sampleRateHertz: Double(sampleRate))
        guard var stream = try? SisFallFeatureStream(.c8, parameters: parameters) else { return [] }
        let stride = max(1, Int(sampleRate) / baselineRate)
        var series: [(timestamp: Int64, value: Float)] = []
        series.reserveCapacity(samples.count / stride + 1)
        for (i, sample) in samples.enumerated() {
            if let v = stream.push(sample.acceleration), i % stride == 0 { series.append((sample.timestampNanoseconds, v)) }
        }
        return series
    }

    /// The candidates the daemon's front end finds in `samples` (SisFall's ADXL345, ±16 g), and
    /// for each when the confirmation stage, started at its decision, confirmed it, and when the
    /// recovery check under each setting of `RecoveryParameters.grid` found the wearer up again;
    /// with how often the gyroscope was left out as implausible. With `mounting` the samples are in
    /// the sensor's frame and it turns them into the body frame (`AxisChoice.auto`).
    public static func candidates(
        in samples: [IMUSample], settings: FallCandidateSettings, confirmation: StillnessParameters = benchConfirmation,
        mounting: MountingEstimator? = nil, accelerometerRange: Float = 16
    ) -> (candidates: [FallCandidate], confirmations: [Int64?], recoveries: [[Int64?]], suspectGyroscopeEpisodes: Int) {
        var mounting = mounting
        var frames = MotionFrameBuilder(sampleRate: settings.sampleRate, accelerometerRange: accelerometerRange)
        // Settings were validated by the caller.
        guard var tracker = try? FallCandidateTracker(settings: settings) else { return ([], [], [], 0) }
        var found: [FallCandidate] = []
        var confirmed: [Int64?] = []
        var recovered: [[Int64?]] = []
        var following: [(index: Int, stage: StillnessConfirmation)] = []
        var watching: [(index: Int, setting: Int, watch: RecoveryWatch)] = []
        for sample in samples {
            let frame = mounting == nil ? frames.push(sample) : frames.push(sample, mounting: &mounting!)
            if mounting?.isEstimated == false { continue }  // as the pipeline: no posture yet
            var k = 0
            while k < following.count {
                if let outcome = following[k].stage.push(frame) {
                    if case .confirmed = outcome { confirmed[following[k].index] = frame.timestampNanoseconds }
                    following.remove(at: k)
                } else {
                    k += 1
                }
            }
            k = 0
            while k < watching.count {
                if let outcome = watching[k].watch.push(frame) {
                    if case .recovered = outcome { recovered[watching[k].index][watching[k].setting] = frame.timestampNanoseconds }
                    watching.remove(at: k)
                } else {
                    k += 1
                }
            }
            if let c = tracker.push(frame) {
                found.append(c)
                confirmed.append(nil)
                recovered.append([Int64?](repeating: nil, count: RecoveryParameters.grid.count))
                let event = DetectionEvent(kind: .fall, detector: "", confidence: 0, timestampNanoseconds: c.decisionNanoseconds)
                if let stage = try? StillnessConfirmation(event: event, parameters: confirmation) {
                    following.append((found.count - 1, stage))
                }
                for (g, parameters) in RecoveryParameters.grid.enumerated() {
                    if let watch = try? RecoveryWatch(detectionNanoseconds: c.decisionNanoseconds, parameters: parameters) {
                        watching.append((found.count - 1, g, watch))
                    }
                }
            }
        }
        return (found, confirmed, recovered, frames.suspectGyroscopeEpisodes)
    }
}

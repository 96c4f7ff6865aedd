import Synchronization

/// Scores every trial of a SisFall folder under the paper's features, on all cores: each worker
/// loads a trial (from the binary cache when given) and runs every requested feature's stream
/// over it. The trial is dropped afterwards, so the dataset is never held in memory.
public struct SisFallScoring: Sendable {
    /// Per trial, in `SisFallTrialName` order.
    public struct Row: Sendable {
        public var name: SisFallTrialName
        public var samples: Int
        /// Per feature, in `features` order; -infinity when the trial is shorter than one window.
        public var scores: [Float]
    }

    public let features: [SisFallFeature]
    public let parameters: SisFallFeatureParameters
    public let rows: [Row]
    /// Seconds spent computing each feature (one core's time summed over trials), `features` order.
    public let computeSeconds: [Double]
    /// What scanning and loading noticed (missing trials, label quirks, unreadable files).
    public let notices: [String]

    public var samples: Int { rows.reduce(0) { $0 + $1.samples } }

    /// Loads and scores. Throws only for invalid parameters or an empty feature list.
    public init(
        dataset: SisFallDataset, features: [SisFallFeature],
        parameters: SisFallFeatureParameters = SisFallFeatureParameters(),
        cache: TrialCache? = nil, workers: Int? = nil
    ) throws(FallDetectError) {
        guard !features.isEmpty else { throw FallDetectError(.invalidArgument, "no feature to score", field: "features") }
        try parameters.validate()
        let collected = Mutex<(rows: [Row], seconds: [Double])>(([], [Double](repeating: 0, count: features.count)))
        let notices = dataset.forEachTrial(cache: cache, workers: workers) { trial in
            let clock = ContinuousClock()
            var scores: [Float] = []
            var seconds: [Double] = []
            for feature in features {
                let start = clock.now
                // Parameters were validated above, so the stream cannot fail here.
                let score = (try? SisFallFeatureStream.maximum(of: feature, over: trial.samples, parameters: parameters)) ?? nil
                let elapsed = start.duration(to: clock.now)
                seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                scores.append(score ?? -.infinity)
            }
            let row = Row(name: trial.name, samples: trial.samples.count, scores: scores)
            collected.withLock { state in
                state.rows.append(row)
                for i in seconds.indices { state.seconds[i] += seconds[i] }
            }
        }
        let (rows, seconds) = collected.withLock { ($0.rows, $0.seconds) }
        self.features = features
        self.parameters = parameters
        self.rows = rows.sorted { $0.name < $1.name }
        self.computeSeconds = seconds
        self.notices = notices
    }

    /// One feature's scores, ready for `TrialProtocol`.
    public func scoredTrials(_ feature: SisFallFeature) -> [ScoredTrial] {
        guard let k = features.firstIndex(of: feature) else { return [] }
        return rows.map { ScoredTrial(name: $0.name, score: $0.scores[k]) }
    }
}

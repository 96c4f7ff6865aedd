/// Runs a `SampleDetector` over recordings, one after another, collecting each recording's
/// outputs: the step between a detector and the online protocol that judges it.
public enum SampleDetectorRun {
    /// One recording: `start`, every sample, `finish`; the outputs sorted by time.
    public static func track(
        of samples: [IMUSample], recording: SampleRecording, detector: inout some SampleDetector
    ) throws(FallDetectError) -> [SampleDetection] {
        var found: [SampleDetection] = []
        try detector.start(recording)
        for sample in samples { try detector.push(sample, into: &found) }
        try detector.finish(into: &found)
        // Stable: a detector's equal times keep the order it gave them.
        if !zip(found, found.dropFirst()).allSatisfy({ $0.timestampNanoseconds <= $1.timestampNanoseconds }) {
            found = found.enumerated().sorted { ($0.element.timestampNanoseconds, $0.offset) < ($1.element.timestampNanoseconds, $1.offset) }
                .map(\.element)
        }
        return found
    }

    /// Every one of `trials` (an `OnlineScan`'s, in its order), its samples loaded from `dataset`
    /// and prepared as `OnlineScan` prepares them (the stress test on the falls, then every
    /// `decimation`-th sample), so the detector sees what the built-in detectors saw.
    public static func run(
        _ detector: inout some SampleDetector, on trials: [OnlineTrial], dataset: SisFallDataset, decimation: Int = 1,
        softening: FallSoftening? = nil, slowing: FallSlowing? = nil, cache: TrialCache? = nil
    ) throws(FallDetectError) -> DetectorTracks {
        let entries = Dictionary(dataset.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let rate = 1e9 / Double(SisFallTrial.samplePeriodNanoseconds) / Double(decimation)
        let clock = ContinuousClock()
        var spent = Duration.zero
        var tracks: [[SampleDetection]] = []
        var samples = 0
        for trial in trials {
            guard let entry = entries[trial.name] else {
                throw FallDetectError(.noData, "trial \(trial.name) is not in the dataset", path: dataset.rawDirectory)
            }
            let loaded: SisFallTrial
            do { loaded = try dataset.load(entry, cache: cache).trial } catch let error as FallDetectError { throw error } catch {
                throw FallDetectError(.io, "cannot load: \(error)", path: entry.rawPath)
            }
            let full = slowing?.apply(to: loaded).samples ?? (softening?.apply(to: loaded) ?? loaded.samples)
            let kept = decimation == 1 ? full : stride(from: 0, to: full.count, by: decimation).map { full[$0] }
            let started = clock.now
            tracks.append(try track(of: kept, recording: SampleRecording(name: trial.name.description, sampleRate: rate), detector: &detector))
            spent += started.duration(to: clock.now)
            samples += kept.count
        }
        let seconds = Double(spent.components.seconds) + Double(spent.components.attoseconds) * 1e-18
        return DetectorTracks(
            detector: detector.name, output: detector.output, threshold: detector.threshold, tracks: tracks, samples: samples,
            computeSeconds: seconds)
    }
}

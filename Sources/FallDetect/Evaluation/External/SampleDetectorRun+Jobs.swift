import Foundation
import Synchronization

extension SampleDetectorRun {
    /// `run` with `jobs` detectors at once: each is made by `make` on its own thread, goes over a
    /// contiguous share of `trials` and is closed by `close`. The tracks come back in the trials'
    /// order, so a detector whose outputs depend only on the recording in hand (as the protocol
    /// asks: `start` forgets everything) gives what one detector gives. `computeSeconds` adds the
    /// jobs' times up: it stays the detector's own cost, not the wall time.
    public static func run<Detector: SampleDetector & SendableMetatype>(
        jobs: Int, making make: @Sendable () throws(FallDetectError) -> Detector,
        closing close: @Sendable (inout Detector) throws(FallDetectError) -> Void,
        on trials: [OnlineTrial], dataset: SisFallDataset, decimation: Int = 1,
        softening: FallSoftening? = nil, slowing: FallSlowing? = nil, cache: TrialCache? = nil
    ) throws(FallDetectError) -> DetectorTracks {
        let count = max(1, min(jobs, trials.count))
        let bounds = (0...count).map { $0 * trials.count / count }
        let results = Mutex<[Result<DetectorTracks, FallDetectError>?]>(Array(repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { job in
            let result: Result<DetectorTracks, FallDetectError>
            do throws(FallDetectError) {
                var detector = try make()
                let share = Array(trials[bounds[job]..<bounds[job + 1]])
                let tracks = try run(
                    &detector, on: share, dataset: dataset, decimation: decimation, softening: softening, slowing: slowing, cache: cache)
                try close(&detector)
                result = .success(tracks)
            } catch {
                result = .failure(error)
            }
            results.withLock { $0[job] = result }
        }
        var parts: [DetectorTracks] = []
        for result in results.withLock({ $0 }) {
            // Every job has written its slot once concurrentPerform returns.
            switch result {
            case .success(let tracks)?: parts.append(tracks)
            case .failure(let error)?: throw error
            case nil: throw FallDetectError(.io, "a detector job ended without a result")
            }
        }
        var combined = parts[0]
        for part in parts.dropFirst() {
            combined.tracks += part.tracks
            combined.samples += part.samples
            combined.computeSeconds += part.computeSeconds
        }
        return combined
    }
}

import Foundation
import Testing

@testable import FallDetect

/// The built-in detectors behind `SampleDetector` against the online protocol's own series, and
/// Examples/detectors/c8.py (through the external protocol) against the built-in C8, on a
/// handful of SisFall trials.
@Suite struct C8SampleDetectorTests {
    /// Every n-th trial of the development split: falls and ADL of young and elderly subjects.
    static func someTrials(_ root: String, count: Int = 12) throws -> [SisFallTrial] {
        let data = try SisFallDataset(root: root)
        let step = max(1, data.entries.count / count)
        return try stride(from: 0, to: data.entries.count, by: step).prefix(count).map { try data.load(data.entries[$0]).trial }
    }

    static func recording(_ trial: SisFallTrial) -> SampleRecording {
        SampleRecording(name: trial.name.description, sampleRate: 200)
    }

    @Test func theBuiltInC8GivesTheOnlineBaselineSeries() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        var c8 = try C8SampleDetector()
        for trial in try Self.someTrials(root) {
            let track = try SampleDetectorRun.track(of: trial.samples, recording: Self.recording(trial), detector: &c8)
            let baseline = OnlineScan.baseline(in: trial.samples, sampleRate: 200)
            #expect(track.map(\.timestampNanoseconds) == baseline.map(\.timestamp), "\(trial.name)")
            #expect(track.map(\.score) == baseline.map(\.value), "\(trial.name)")
        }
    }

    @Test func theBuiltInJudgesGiveTheOnlineScansCandidates() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let judge = try MultiphaseFallJudge()
        var detector = try JudgeSampleDetector(judge: judge)
        #expect(detector.threshold == .fixed(judge.threshold))
        var candidates = 0
        for trial in try Self.someTrials(root) {
            let track = try SampleDetectorRun.track(of: trial.samples, recording: Self.recording(trial), detector: &detector)
            let found = OnlineScan.candidates(in: trial.samples, settings: FallCandidateSettings()).candidates
            #expect(track.map(\.timestampNanoseconds) == found.map(\.decisionNanoseconds), "\(trial.name)")
            #expect(track.map(\.score) == found.map(judge.score), "\(trial.name)")
            candidates += found.count
        }
        #expect(candidates > 0)
    }

    /// The example in Python (numpy and scipy from the oracle venv) gives the built-in C8's
    /// series to the bit: the same times, the same float32 values, so the same detections at
    /// every threshold and the same figures.
    @Test(arguments: [1, ExternalDetector.defaultBatch])
    func thePythonExampleGivesTheBuiltInC8(batch: Int) throws {
        guard let root = SharedData.sisFallRoot() else { return }
        guard FileManager.default.isExecutableFile(atPath: Oracle.python) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("oracle venv missing at \(Oracle.python); `make test` creates it")
            } else {
                print("SKIPPED: oracle venv missing at \(Oracle.python) (make test creates it)")
            }
            return
        }
        let trials = try Self.someTrials(root, count: batch == 1 ? 4 : 12)
        var python = try ExternalDetector(command: "\(Oracle.python) \(SharedData.packageRoot)/Examples/detectors/c8.py", batch: batch)
        #expect(python.output == .levels)
        #expect(python.threshold == .fitted(grid: OnlineBaseline.thresholds))
        var c8 = try C8SampleDetector()
        for trial in trials {
            let theirs = try SampleDetectorRun.track(of: trial.samples, recording: Self.recording(trial), detector: &python)
            let ours = try SampleDetectorRun.track(of: trial.samples, recording: Self.recording(trial), detector: &c8)
            #expect(theirs.count == ours.count, "\(trial.name)")
            #expect(theirs == ours, "\(trial.name): \(zip(theirs, ours).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "")")
        }
        try python.close()
    }
}

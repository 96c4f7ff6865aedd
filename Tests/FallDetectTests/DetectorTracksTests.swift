import Testing

@testable import FallDetect

@Suite struct DetectorTracksTests {
    static let second: Int64 = 1_000_000_000

    static func trial(_ name: String, seconds: Int) throws -> OnlineTrial {
        let n = try SisFallTrialName(parsing: name)
        return OnlineTrial(
            name: n, samples: seconds * 200, seconds: Double(seconds), fallSpan: n.isFall ? (5 * second)...(5 * second + 400_000_000) : nil,
            candidates: [])
    }

    @Test func levelsCountUpwardCrossingsThroughTheGate() throws {
        let track = [0.1, 0.8, 0.9, 0.1, 0.8, 0.1, 0.8].enumerated().map {
            SampleDetection(timestampNanoseconds: [0, 5, 6, 7, 15, 16, 45][$0.offset] * Self.second, score: Float($0.element))
        }
        let levels = DetectorTracks(detector: "x", output: .levels, threshold: .fitted(grid: [0.5]), tracks: [track])
        #expect(levels.detections(0, threshold: 0.5) == [5 * Self.second, 45 * Self.second])
        var decisions = levels
        decisions.output = .detections
        // Each scoring one counts, and the gate holds back those within 30 s.
        #expect(decisions.detections(0, threshold: 0.5) == [5 * Self.second, 45 * Self.second])
        #expect(decisions.detections(0, threshold: 0.5, gate: DetectionGate(refractorySeconds: 0.5)).count == 4)
        #expect(levels.detections(0, threshold: 0.5, gate: DetectionGate(refractorySeconds: 0.5)).count == 3)
        let unscored = DetectorTracks(detector: "x", output: .detections, threshold: .none, tracks: [[SampleDetection(timestampNanoseconds: 1)]])
        #expect(unscored.detections(0, threshold: 99) == [1])
        #expect(unscored.grid.isEmpty)
    }

    /// A series given as levels is judged as C8's: the same threshold per fold, the same figures.
    @Test func levelsAreJudgedAsC8IsJudged() throws {
        var rng = SplitMix64(seed: 11)
        var trials: [OnlineTrial] = []
        for k in 0..<40 {
            let fall = k % 2 == 0
            var values = (0..<(fall ? 300 : 1200)).map { _ in Float(rng.next() % 1000) / 2500 }
            if fall { for i in 100..<104 { values[i] = 0.3 + Float(rng.next() % 1000) / 1000 } }
            if !fall, k % 6 == 1 { values[Int(rng.next() % 1200)] = 0.45 + Float(rng.next() % 1000) / 1000 }
            let subject = "SA" + (k / 2 + 1 < 10 ? "0" : "") + "\(k / 2 + 1)"
            var t = try Self.trial("\(fall ? "F01" : "D01")_\(subject)_R01", seconds: values.count / 20)
            t.baseline = values.enumerated().map { (Int64($0.offset) * Self.second / 20, $0.element) }
            trials.append(t)
        }
        let tracks = DetectorTracks(
            detector: "levels", output: .levels, threshold: .fitted(grid: OnlineBaseline.thresholds),
            tracks: trials.map { $0.baseline.map { SampleDetection(timestampNanoseconds: $0.timestamp, score: $0.value) } })
        let builtIn = try OnlineBaseline.crossValidate(trials, folds: 4)
        let external = try tracks.crossValidate(trials, folds: 4)
        #expect(external.counts == builtIn.counts)
        #expect(external.threshold == builtIn.threshold)
        #expect(external.latencies == builtIn.latencies)
        #expect(tracks.bestThreshold(trials) == OnlineBaseline.bestThreshold(trials))
        #expect(tracks.sweep(trials) == OnlineBaseline.sweep(trials))
    }

    @Test func withoutAGridTheScoresQuantilesAreTried() {
        let track = (0..<1000).map { SampleDetection(timestampNanoseconds: Int64($0), score: Float($0 % 10)) }
        let tracks = DetectorTracks(detector: "x", output: .detections, threshold: .fitted(grid: []), tracks: [track])
        #expect(tracks.grid == (0..<10).map(Float.init))
        let fixed = DetectorTracks(detector: "x", output: .detections, threshold: .fixed(3), tracks: [track])
        #expect(fixed.grid.isEmpty)
    }
}

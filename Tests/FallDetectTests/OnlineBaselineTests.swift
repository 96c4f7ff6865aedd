import Testing

@testable import FallDetect

@Suite struct OnlineBaselineTests {
    static let second: Int64 = 1_000_000_000

    /// A trial whose C8 series (20 values a second) is `values`; falls span 5.0–5.4 s.
    static func trial(_ name: String, _ values: [Float]) throws -> OnlineTrial {
        let n = try SisFallTrialName(parsing: name)
        let series = values.enumerated().map { (Int64($0.offset) * second / 20, $0.element) }
        return OnlineTrial(
            name: n, samples: values.count * 10, seconds: Double(values.count) / 20,
            fallSpan: n.isFall ? (5 * second)...(5 * second + 400_000_000) : nil, candidates: [], baseline: series)
    }

    @Test func aDetectionIsEachUpwardCrossingThroughTheGate() throws {
        var values = [Float](repeating: 0.1, count: 20 * 100)
        for i in [100, 101, 300, 900] { values[i] = 0.8 }  // crossings at 5 s, 15 s, 45 s
        let t = try Self.trial("D01_SA01_R01", values)
        #expect(OnlineBaseline.detections(in: t, threshold: 0.5) == [5 * Self.second, 45 * Self.second])
        #expect(OnlineBaseline.detections(in: t, threshold: 0.9).isEmpty)
        #expect(OnlineBaseline.detections(in: t, threshold: 0.5, gate: DetectionGate(refractorySeconds: 1)).count == 3)
    }

    /// The bisection shortcut must choose exactly what evaluating every threshold chooses.
    @Test func theBestThresholdMatchesTheFullSearch() throws {
        var rng = SplitMix64(seed: 7)
        var trials: [OnlineTrial] = []
        for k in 0..<60 {
            let fall = k % 2 == 0
            var values = (0..<(fall ? 300 : 2000)).map { _ in Float(rng.next() % 1000) / 2500 }  // 0…0.4 g
            if fall { for i in 100..<104 { values[i] = 0.3 + Float(rng.next() % 1000) / 1000 } }
            if !fall, k % 6 == 1 { values[Int(rng.next() % 2000)] = 0.45 + Float(rng.next() % 1000) / 1000 }
            let subject = "SA" + (k / 2 + 1 < 10 ? "0" : "") + "\(k / 2 + 1)"
            trials.append(try Self.trial("\(fall ? "F01" : "D01")_\(subject)_R01", values))
        }
        var best = (accuracy: -1.0, threshold: Float(0))
        for t in OnlineBaseline.thresholds {
            let accuracy = OnlineBaseline.evaluate(trials, threshold: t).counts.balancedAccuracy ?? 0
            if accuracy > best.accuracy { best = (accuracy, t) }
        }
        #expect(OnlineBaseline.bestThreshold(trials) == best.threshold)
        #expect(best.accuracy > 0.6)
        let validated = try OnlineBaseline.crossValidate(trials, folds: 3)
        #expect(validated.counts.trials == trials.count)
    }
}

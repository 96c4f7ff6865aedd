import Testing

@testable import FallDetect

/// The bench's slower-falls stress test: the fall's stretch replayed slower, the rest shifted.
@Suite struct FallSlowingTests {
    /// `FallSofteningTests`' trial (1 g, a 0.2 g dip at 180, a 6 g impact at 200, a 5 g bump at
    /// 300, FALL labelled 170–210) turning about the vertical at 40 °/s throughout, which leaves
    /// gravity's direction in the body frame alone.
    static func trial(_ code: String, labelled: Bool = true) throws -> SisFallTrial {
        var trial = try FallSofteningTests.trial(code, labelled: labelled)
        for i in trial.samples.indices { trial.samples[i].angularRate = SIMD3(0, 0, 40) }
        return trial
    }

    @Test func theFallTakesTwiceAsLongAndMovesAQuarterAsHard() throws {
        let trial = try Self.trial("F01")
        let (samples, labels) = try FallSlowing(factor: 2).apply(to: trial)
        // The window runs from 0.1 s before the fall (150) to 0.3 s after the impact (260): its
        // 110 sample periods become 220.
        #expect(samples.count == 510)
        #expect(samples.indices.allSatisfy { samples[$0].timestampNanoseconds == Int64($0) * SisFallTrial.samplePeriodNanoseconds })
        #expect(Array(samples[..<150]) == Array(trial.samples[..<150]))
        #expect(zip(samples[371...], trial.samples[261...]).allSatisfy { $0.acceleration == $1.acceleration && $0.angularRate == $1.angularRate })
        #expect(samples[150...370].allSatisfy { abs($0.angularRate.z - 20) < 1e-4 })
        // The impact (200) is drawn at 250: its 5.4 g beyond gravity (0, 3.6, 3.8) a quarter as large.
        let impact = samples[250].acceleration
        #expect(abs(impact.y - 0.9) < 0.05 && abs(impact.z - 1.95) < 0.05, "\(impact)")
        // The dip (180, 0.8 g under gravity) at 210, a quarter as deep.
        #expect(abs(samples[210].acceleration.z - 0.8) < 0.05, "\(samples[210].acceleration)")
        // The labels stretch with the samples: FALL now twice as long, still where the fall is.
        let fall = try #require(labels).indices.filter { labels?[$0] == 2 }
        #expect(labels?.count == 510)
        #expect((189...190).contains(fall.first ?? 0) && (80...83).contains(fall.count), "\(fall.first ?? -1) \(fall.count)")
    }

    /// A label file that ends inside the window still stretches, its last label carried on.
    @Test func labelsShortOfTheSamplesStretchWithoutFailing() throws {
        var trial = try Self.trial("F01")
        trial.labels = Array(trial.labels?[..<240] ?? [])
        let labels = try #require(try FallSlowing(factor: 2).apply(to: trial).labels)
        #expect(labels.count == 150 + 221)
        #expect(labels.filter { $0 == 2 }.count >= 80)
    }

    @Test func activitiesUnlabelledFallsAndAFactorOfOneAreLeftAlone() throws {
        let slowing = try FallSlowing(factor: 1.5)
        for trial in [try Self.trial("D01"), try Self.trial("F01", labelled: false)] {
            let out = slowing.apply(to: trial)
            #expect(out.samples == trial.samples && out.labels == trial.labels, "\(trial.name)")
        }
        let trial = try Self.trial("F01")
        #expect(try FallSlowing(factor: 1).apply(to: trial).samples == trial.samples)
    }

    @Test(arguments: [Float(0.5), 0.99, 3.01, .nan])
    func aFactorOutsideOneToThreeIsNamed(_ factor: Float) {
        let error = #expect(throws: FallDetectError.self) { try FallSlowing(factor: factor) }
        #expect(error?.field == "slow")
    }
}

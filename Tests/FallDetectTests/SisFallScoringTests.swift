import Foundation
import Testing

@testable import FallDetect

@Suite struct SisFallScoringTests {
    /// The paper's C8 under its protocol, 10 folds by subject, on the development split.
    ///
    /// Measured here: pooled AC 96.33 %, fold AC 96.43 ± 1.63 % (SE 95.70 %, SP 96.96 %). The
    /// paper reports 96.15 ± 0.75 % on all 38 subjects; the band is the paper's mean ± 2 of its
    /// fold standard deviations (94.65…97.65 %). Our folds hold 2–3 subjects each, so their spread is
    /// wider than the paper's, but the mean must land in the paper's range for the baseline to count
    /// as reproduced. The split and fold assignment are deterministic, so a change of more than a few
    /// hundredths of a point means the features or the protocol changed.
    @Test func c8ReproducesThePaper() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dataset = try SisFallDataset(root: root)
        let cache = try TrialCache(directory: "\(SharedData.packageRoot)/.cache/trials")
        let scoring = try SisFallScoring(dataset: dataset, features: [.c8], cache: cache)
        #expect(scoring.rows.count == 3291)
        #expect(scoring.rows.filter(\.name.isFall).count == 1350)
        let result = try TrialProtocol.evaluate(scoring.scoredTrials(.c8), folds: 10)
        let summary = try #require(result.foldBalancedAccuracySummary)
        let pooled = try #require(result.pooled.balancedAccuracy)
        let band = 0.9465...0.9765
        #expect(band.contains(summary.mean), "fold AC \(summary.mean) ± \(summary.std)")
        #expect(band.contains(pooled), "pooled AC \(pooled)")
        #expect(summary.std < 0.03)
        #expect(result.byGroup[.elderly]?.sensitivity == nil)
        #expect((result.byGroup[.elderly]?.specificity ?? 0) > 0.9)
        // Thresholds sit near 0.58 g here, not the 0.40 g of the paper's Table 6 (whose unit the
        // paper does not state); recorded so a change shows.
        for t in result.thresholds { #expect(t > 0.5 && t < 0.7) }
    }

    /// Every feature of every trial, and nothing from outside the folder.
    @Test func scoresEachTrialOnce() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dir = try SharedData.temporaryDirectory("scoring")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/SisFall_dataset", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/SisFall_dataset/SA01", withDestinationPath: "\(root)/SisFall_dataset/SA01")
        let scoring = try SisFallScoring(dataset: try SisFallDataset(root: dir), features: SisFallFeature.allCases)
        #expect(scoring.rows.count == 154)
        #expect(scoring.rows.allSatisfy { $0.scores.count == 5 && $0.scores.allSatisfy(\.isFinite) })
        #expect(scoring.computeSeconds.count == 5)
        #expect(scoring.scoredTrials(.c13).count == 154)
        #expect(throws: FallDetectError.self) { try SisFallScoring(dataset: try SisFallDataset(root: dir), features: []) }
    }
}

import Foundation
import Testing

@testable import FallDetect

@Suite struct SlidingStatisticsTests {
    /// numpy mean/var/std over each window (partial windows first): within 1e-6 relative to the
    /// signal's scale (Welford in Double, results rounded to Float).
    @Test func matchesNumpyRollingWindows() throws {
        guard let oracle = try FeatureOracle.run() else { return }
        defer { oracle.remove() }
        let expected = try oracle.doubles("stats.f64")
        var stats = SlidingStatistics(window: Int(oracle.number("window")))
        var worstMean: Double = 0, worstVar: Double = 0, worstStd: Double = 0
        for (i, x) in oracle.input.enumerated() {
            let s = stats.push(x)
            for k in 0..<3 {
                worstMean = max(worstMean, abs(Double(s.mean[k]) - expected[i * 9 + k]))
                worstVar = max(worstVar, abs(Double(s.variance[k]) - expected[i * 9 + 3 + k]))
                worstStd = max(worstStd, abs(Double(s.standardDeviation[k]) - expected[i * 9 + 6 + k]))
            }
        }
        #expect(worstMean < 1e-5, "mean \(worstMean)")
        #expect(worstVar < 1e-5, "variance \(worstVar)")
        #expect(worstStd < 1e-4, "std \(worstStd)")
    }

    /// Hours of a large offset plus small signal: the recomputation keeps the variance exact.
    @Test func staysAccurateOverLongRuns() {
        var stats = SlidingStatistics(window: 50)
        var last = stats.summary
        for i in 0..<1_000_000 {
            let v = Float(1000 + (i % 2 == 0 ? 0.001 : -0.001))
            last = stats.push(SIMD3(v, -v, 0))
        }
        // Window of 25 + 25 alternating values (as rounded to Float) around 1000.
        let a = Double(Float(1000.001)), b = Double(Float(999.999))
        let variance = ((a - b) / 2) * ((a - b) / 2)
        #expect(abs(Double(last.variance.x) - variance) < 1e-9)
        #expect(last.variance.z == 0)
        #expect(stats.count == 50)
    }

    @Test func partialWindowThenFull() {
        var stats = SlidingStatistics(window: 3)
        #expect(stats.push(SIMD3(1, 0, 0)).mean.x == 1)
        #expect(stats.push(SIMD3(3, 0, 0)).mean.x == 2)
        _ = stats.push(SIMD3(5, 0, 0))
        let s = stats.push(SIMD3(7, 0, 0))  // window 3, 5, 7
        #expect(s.mean.x == 5)
        #expect(abs(s.variance.x - 8.0 / 3) < 1e-6)
    }
}

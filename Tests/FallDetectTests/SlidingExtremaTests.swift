import Foundation
import Testing

@testable import FallDetect

@Suite struct SlidingExtremaTests {
    /// numpy rolling max/min of |a| (float32 magnitudes, exact equality expected).
    @Test func matchesNumpyRollingMaxMin() throws {
        guard let oracle = try FeatureOracle.run() else { return }
        defer { oracle.remove() }
        let expected = try oracle.doubles("extrema.f64")
        var extrema = SlidingExtrema(window: Int(oracle.number("window")))
        var mismatches = 0
        for (i, a) in oracle.input.enumerated() {
            let e = extrema.push(JerkEstimator.signalMagnitude(a))
            if Double(e.maximum) != expected[i * 2] || Double(e.minimum) != expected[i * 2 + 1] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// Against a brute-force window on random data with long monotonic runs (deque worst cases).
    @Test(arguments: [1, 2, 7, 64])
    func matchesBruteForce(window: Int) {
        var rng = SystemRandomNumberGenerator()
        var extrema = SlidingExtrema(window: window)
        var values: [Float] = []
        for i in 0..<5000 {
            let x: Float = i % 500 < 100 ? Float(i % 500) : (i % 500 < 200 ? Float(200 - i % 500) : Float.random(in: -5...5, using: &rng))
            values.append(x)
            let e = extrema.push(x)
            let w = values.suffix(window)
            #expect(e.maximum == w.max()! && e.minimum == w.min()!)
        }
    }

    @Test func skipsNaN() {
        var extrema = SlidingExtrema(window: 2)
        #expect(extrema.push(.nan).maximum.isNaN)
        _ = extrema.push(1)
        let e = extrema.push(.nan)
        #expect(e.maximum == 1 && e.minimum == 1)
    }
}

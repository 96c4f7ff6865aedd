import Foundation
import Testing

@testable import FallDetect

@Suite struct JerkEstimatorTests {
    /// numpy diff / dt per axis, its norm, and diff of |a| / dt: within 1e-4 relative to the
    /// largest jerk (float differences against double).
    @Test func matchesNumpyDifferences() throws {
        guard let oracle = try FeatureOracle.run() else { return }
        defer { oracle.remove() }
        let expected = try oracle.doubles("jerk.f64")
        let dt = Float(1 / oracle.number("fs"))
        var jerk = JerkEstimator()
        var worst: Double = 0, scale: Double = 1
        for (i, a) in oracle.input.enumerated() {
            let j = jerk.push(a, samplePeriod: dt)
            let ours = [Double(j.axes.x), Double(j.axes.y), Double(j.axes.z), Double(j.magnitude), Double(j.magnitudeRate)]
            for k in 0..<5 {
                worst = max(worst, abs(ours[k] - expected[i * 5 + k]))
                scale = max(scale, abs(expected[i * 5 + k]))
            }
        }
        #expect(worst < 1e-4 * scale, "worst \(worst) g/s at scale \(scale)")
    }

    @Test func rotationAtConstantMagnitudeShowsInAxesOnly() {
        var jerk = JerkEstimator()
        _ = jerk.push(SIMD3(0, 0, 1), samplePeriod: 0.01)
        let j = jerk.push(SIMD3(0, 1, 0), samplePeriod: 0.01)
        #expect(abs(j.magnitude - Float(2).squareRoot() * 100) < 1e-3)
        #expect(j.magnitudeRate == 0)
    }
}

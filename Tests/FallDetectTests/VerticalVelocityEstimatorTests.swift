import Foundation
import Testing

@testable import FallDetect

@Suite struct VerticalVelocityEstimatorTests {
    /// scipy.signal.lfilter([g0·dt], [1, −e^(−dt/τ)], a_z) on the oracle's vertical axis − 1 g.
    @Test func matchesScipyLeakyIntegrator() throws {
        guard let oracle = try FeatureOracle.run() else { return }
        defer { oracle.remove() }
        let expected = try oracle.doubles("vvel.f64")
        let dt = Float(1 / oracle.number("fs"))
        var v = VerticalVelocityEstimator(timeConstant: Float(oracle.number("tau")))
        var worst: Double = 0
        for (i, a) in oracle.input.enumerated() {
            let y = v.push(earthAccelerationZ: a.z - 1, samplePeriod: dt)
            worst = max(worst, abs(Double(y) - expected[i]))
        }
        #expect(worst < 1e-3, "\(worst) m/s from scipy")
    }

    @Test func biasSettlesInsteadOfDrifting() {
        var v = VerticalVelocityEstimator(timeConstant: 1)
        var y: Float = 0
        for _ in 0..<(200 * 60) { y = v.push(earthAccelerationZ: 0.01, samplePeriod: 0.005) }
        #expect(abs(y - 0.0980665) < 1e-3)  // g0 · b · τ
    }

    @Test func freeFallReachesMostOfItsSpeed() {
        var v = VerticalVelocityEstimator()
        var y: Float = 0
        for _ in 0..<100 { y = v.push(earthAccelerationZ: -1, samplePeriod: 0.005) }
        // 0.5 s of free fall: −4.9 m/s unfiltered, × (1 − e^−0.5)/0.5 ≈ 0.787 with τ = 1 s.
        #expect(abs(y - (-9.80665 * (1 - exp(-0.5)))) < 0.02)
    }
}

import Foundation
import Testing

@testable import FallDetect

@Suite struct GyroscopeBiasTests {
    @Test func agreesWithImufusionBias() throws {
        guard let folder = try Oracle.run("ahrs_oracle.py", ["--rows", "1000"]) else { return }
        defer { Oracle.remove(folder) }
        let input = try Oracle.read("\(folder)/bias_input.f32", as: Float.self)
        let expected = try Oracle.read("\(folder)/bias_output.f64", as: Double.self)
        var bias = GyroscopeBias(settings: .init(sampleRate: 100, stationaryThreshold: 3, stationaryPeriod: 3))
        var worst: Double = 0
        for i in 0..<(input.count / 3) {
            let corrected = bias.update(SIMD3(input[i * 3], input[i * 3 + 1], input[i * 3 + 2]))
            for k in 0..<3 {
                worst = max(worst, abs(Double(corrected[k]) - expected[i * 6 + k]))
                worst = max(worst, abs(Double(bias.offset[k]) - expected[i * 6 + 3 + k]))
            }
        }
        #expect(worst < 1e-5, "differs from imufusion.Bias by \(worst) °/s")
    }

    @Test func learnsAConstantOffsetWhileStill() {
        var bias = GyroscopeBias(settings: .init(sampleRate: 100))
        let offset = SIMD3<Float>(1.5, -0.7, 0.3)
        for _ in 0..<(100 * 60) { _ = bias.update(offset) }
        // 57 s of filtering at 0.02 Hz: e^(−2π·0.02·57) ≈ 0.08 % of the offset left.
        let error = bias.offset - offset
        #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 0.01)
    }

    @Test func motionStopsLearning() {
        var bias = GyroscopeBias()
        for _ in 0..<1000 { _ = bias.update(SIMD3(50, 0, 0)) }
        #expect(bias.offset == .zero)
        bias.offset = SIMD3(1, 2, 3)
        #expect(bias.update(SIMD3(1, 2, 3)) == .zero)
    }
}

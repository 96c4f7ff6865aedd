import Foundation
import Testing

@testable import FallDetect

@Suite struct ButterworthLowPassTests {
    /// Same sections as scipy.signal.butter(4, fc, fs=fs, output='sos') (relative 1e-9), and the
    /// same output as sosfilt with zero and with steady-state initial conditions: within 1e-5 g
    /// (our output is rounded to Float; the state is Double).
    @Test(arguments: [(5.0, [String]()), (0.5, ["--fc", "0.5"]), (40.0, ["--fc", "40", "--fs", "100"])])
    func matchesScipy(cutoff: Double, arguments: [String]) throws {
        guard let oracle = try FeatureOracle.run(arguments, useSisFall: cutoff == 5.0) else { return }
        defer { oracle.remove() }
        let fs = oracle.number("fs")
        var filter = try #require(ButterworthLowPass(cutoff: cutoff, sampleRate: fs))
        let sos = try oracle.doubles("butter_sos.f64")
        let ours = filter.secondOrderSections.flatMap { $0 }
        for (a, b) in zip(ours, sos) {
            #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "section coefficient \(a) vs scipy \(b)")
        }
        for (name, steady) in [("butter_zero.f64", false), ("butter_steady.f64", true)] {
            let expected = try oracle.doubles(name)
            filter.reset()
            if steady { filter.reset(steadyAt: oracle.input[0]) }
            var worst: Double = 0
            for (i, x) in oracle.input.enumerated() {
                let y = filter.filter(x)
                for k in 0..<3 { worst = max(worst, abs(Double(y[k]) - expected[i * 3 + k])) }
            }
            #expect(worst < 1e-5, "\(name) at \(cutoff) Hz: \(worst) g from scipy")
        }
    }

    @Test func rejectsCutoffsOutsideNyquist() {
        #expect(ButterworthLowPass(cutoff: 0, sampleRate: 100) == nil)
        #expect(ButterworthLowPass(cutoff: 50, sampleRate: 100) == nil)
        #expect(ButterworthLowPass(cutoff: 10, sampleRate: 0) == nil)
    }

    @Test func unityGainAtDC() {
        var f = ButterworthLowPass(cutoff: 3, sampleRate: 100)!
        var y: Float = 0
        for _ in 0..<2000 { y = f.filter(1) }
        #expect(abs(y - 1) < 1e-6)
    }
}

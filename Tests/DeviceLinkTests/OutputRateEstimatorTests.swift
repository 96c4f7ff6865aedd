import Testing
@testable import DeviceLink

@Suite struct OutputRateEstimatorTests {
    @Test func nominalUntilAWindowHasPassed() {
        var estimator = OutputRateEstimator(nominalHz: 200)
        estimator.drained(100, at: 0)
        estimator.drained(200, at: 1_000_000_000)
        #expect(estimator.estimateHz == nil)
        #expect(estimator.rateHz == 200)
    }

    @Test(arguments: [190.0, 197.3, 200.0, 206.0])
    func measuresTheRealRateOverWindows(real: Double) {
        var estimator = OutputRateEstimator(nominalHz: 200)
        var produced = 0
        for drain in 0...1000 {
            let now = Int64(drain) * 25_000_000
            let due = Int(Double(now) * real / 1e9)
            estimator.drained(due - produced, at: now)
            produced = due
        }
        // ±1 sample in a 5 s window is ±0.2 Hz; blending windows keeps it there.
        #expect(abs((estimator.estimateHz ?? 0) - real) < 0.25)
    }

    @Test func refusesRatesFarFromNominal() {
        var estimator = OutputRateEstimator(nominalHz: 200)
        estimator.drained(0, at: 0)
        estimator.drained(1500, at: 5_000_000_000) // 300 Hz: the chip is set wrong
        #expect(estimator.estimateHz == nil)
    }

    @Test func aRestartDropsThePartialWindow() {
        var estimator = OutputRateEstimator(nominalHz: 200)
        estimator.drained(0, at: 0)
        estimator.drained(900, at: 4_500_000_000)
        estimator.restart()
        estimator.drained(50, at: 5_000_000_000) // opens a new window only
        estimator.drained(1000, at: 10_000_000_000)
        #expect(estimator.estimateHz == 200)
    }
}

import Testing
@testable import DeviceLink

@Suite struct SampleTimestamperTests {
    static let period = 5_000_000.0 // 200 Hz

    @Test func theNewestSampleIsAtTheDrainAndTheOthersBackDatedByPosition() {
        var stamper = SampleTimestamper()
        let batch = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        #expect(batch.restarted)
        #expect((0..<4).map(batch.timestamp(of:)) == [985_000_000, 990_000_000, 995_000_000, 1_000_000_000])
    }

    @Test func laterBatchesContinueOnePeriodOnWhateverTheDrainJitter() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        // Drained 1.3 ms late with the same four samples: still one period after the last.
        let next = stamper.stamp(count: 4, drainedAt: 1_021_300_000, rateHz: 200)
        #expect(!next.restarted)
        #expect(next.lostBefore == 0)
        let first = next.timestamp(of: 0)
        // Steered by a tenth of the 1.3 ms drift, never more than a quarter period.
        #expect(first == 1_005_000_000 + 130_000)
    }

    /// A chip running 2 % fast, drained every 20 ms: the timestamps keep up with the drain clock
    /// when stamped at the measured rate, and stay strictly increasing.
    @Test func followsAFastChipWithoutGoingBackwards() {
        var stamper = SampleTimestamper()
        var estimator = OutputRateEstimator(nominalHz: 200)
        let realRate = 204.0
        var produced = 0
        var last: Int64 = .min
        var worst: Int64 = 0
        for drain in 1...3000 {
            let now = Int64(drain) * 20_000_000
            let due = Int(Double(now) * realRate / 1e9)
            let count = due - produced
            produced = due
            estimator.drained(count, at: now)
            let batch = stamper.stamp(count: count, drainedAt: now, rateHz: estimator.rateHz)
            #expect(batch.lostBefore == 0)
            for i in 0..<count {
                let t = batch.timestamp(of: i)
                #expect(t > last)
                last = t
            }
            if drain > 1000 { worst = max(worst, abs(last - now)) }
        }
        #expect(abs((estimator.estimateHz ?? 0) - realRate) < 0.2)
        // After the estimate settles the newest stamp stays within two periods of the drain.
        #expect(worst < 10_000_000, "worst offset \(worst) ns")
    }

    /// A chip 15 % fast, further off than the estimator trusts, so stamped at the nominal rate:
    /// the stamps never run ahead of the drain clock, and stay strictly increasing. Before,
    /// a quarter period of steering per batch could not keep up, and they ran ahead 5 s a minute.
    @Test func aChipTooFastToMeasureNeverRunsAheadOfTheClock() {
        var stamper = SampleTimestamper()
        var estimator = OutputRateEstimator(nominalHz: 200)
        var produced = 0
        var last: Int64 = .min
        var ahead: Int64 = 0
        var surplus = 0
        for drain in 1...3000 {
            let now = Int64(drain) * 20_000_000
            let due = Int(Double(now) * 230 / 1e9)
            let count = due - produced
            produced = due
            estimator.drained(count, at: now)
            let batch = stamper.stamp(count: count, drainedFrom: now, to: now, rateHz: estimator.rateHz, rateMeasured: estimator.estimateHz != nil)
            #expect(batch.lostBefore == 0)
            surplus += batch.surplus
            for i in 0..<count {
                let t = batch.timestamp(of: i)
                #expect(t > last)
                last = t
            }
            ahead = max(ahead, last - now)
        }
        #expect(estimator.estimateHz == nil, "15 % off is past the estimator's tolerance")
        #expect(ahead <= 7_500_000, "the newest stamp ran \(ahead) ns ahead of the drain")
        #expect(surplus > 0, "the samples the nominal rate has no room for are told as duplicates")
    }

    /// Three samples a millisecond after the last stamp: no room before the drain's end, yet
    /// spaced a quarter period at least, so the fusion still gets a time step.
    @Test func squeezedSamplesKeepAQuarterPeriodApart() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 1, drainedAt: 1_000_000_000, rateHz: 200)
        let batch = stamper.stamp(count: 3, drainedAt: 1_001_000_000, rateHz: 200)
        #expect(batch.surplus > 0)
        let times = [1_000_000_000] + (0..<3).map(batch.timestamp(of:))
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1_250_000 }, "\(times)")
    }

    @Test func aBreakStartsAgainFromTheDrainAndCountsWhatWasLost() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        // The FIFO overflowed; after its reset 4 new samples, 100 ms later.
        let batch = stamper.stamp(count: 4, drainedAt: 1_100_000_000, rateHz: 200, broken: true)
        #expect(batch.restarted)
        #expect(batch.timestamp(of: 3) == 1_100_000_000)
        // 1.0 s → 1.085 s: 17 periods, so 16 samples missing in between.
        #expect(batch.lostBefore == 16)
    }

    @Test func aPollThatMissedSamplesIsAGapEvenWithoutTheDriverSaying() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 1, drainedAt: 1_000_000_000, rateHz: 200)
        let batch = stamper.stamp(count: 1, drainedAt: 1_020_000_000, rateHz: 200)
        #expect(batch.lostBefore == 3)
        #expect(batch.restarted)
    }

    /// Counted on time, but the drain ended 20 ms later (the thread preempted): the same run,
    /// steered only by the start's tiny drift.
    @Test func aDrainThatEndsLateIsNoGap() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        let batch = stamper.stamp(count: 4, drainedFrom: 1_020_000_000, to: 1_040_000_000, rateHz: 200)
        #expect(!batch.restarted && batch.lostBefore == 0 && batch.surplus == 0)
        #expect(batch.timestamp(of: 0) == 1_005_000_000)
        // Started late too: samples are missing whatever the end says.
        let late = stamper.stamp(count: 4, drainedFrom: 1_060_000_000, to: 1_060_500_000, rateHz: 200)
        #expect(late.restarted && late.lostBefore == 4)
    }

    /// Eight samples where the time since allows four: surplus only if even the drain's end is
    /// too early for them; a start held up before the count is read is no duplicate.
    @Test func surplusIsJudgedByTheDrainsEnd() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        let held = stamper.stamp(count: 8, drainedFrom: 1_020_000_000, to: 1_040_000_000, rateHz: 200)
        #expect(held.surplus == 0 && !held.restarted)
        let repeated = stamper.stamp(count: 8, drainedFrom: 1_060_000_000, to: 1_060_500_000, rateHz: 200)
        #expect(repeated.surplus == 3)
    }

    @Test func moreSamplesThanTheTimeAllowsAreCountedAsSurplus() {
        var stamper = SampleTimestamper()
        _ = stamper.stamp(count: 4, drainedAt: 1_000_000_000, rateHz: 200)
        let batch = stamper.stamp(count: 8, drainedAt: 1_020_000_000, rateHz: 200)
        #expect(batch.surplus == 4)
        #expect(batch.timestamp(of: 0) > 1_000_000_000)
    }
}

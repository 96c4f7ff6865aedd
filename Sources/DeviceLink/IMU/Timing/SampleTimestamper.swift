/// Gives drained samples their times: the newest at the drain's start, the others back-dated by
/// their FIFO position at the measured period. Successive batches continue one period after the last
/// stamp, steered a little toward the drain clock each batch, so timestamps stay evenly spaced
/// and monotonic while following the chip's real rate; a break (a FIFO overflow, a chip
/// re-initialised, a poll that missed samples) starts afresh from the drain time and says how
/// many samples the break is worth. Nothing is ever stitched over a gap.
public struct SampleTimestamper: Sendable {
    public struct Batch: Sendable, Equatable {
        /// Time of the batch's first sample and the spacing of the rest.
        public var firstNanoseconds: Int64
        public var periodNanoseconds: Int64
        /// The exact period, for `timestamp(of:)`.
        public var period: Double
        /// Samples estimated lost just before this batch; 0 when it continues the last one.
        public var lostBefore: Int
        /// The batch began a new run of timestamps (after a break or at the start).
        public var restarted: Bool
        /// Samples more than the time since the last batch allows (a chip repeating samples, or
        /// set to another rate than it runs at): stamped closer together, up to the drain's end,
        /// and counted as duplicates.
        public var surplus: Int = 0

        public func timestamp(of index: Int) -> Int64 {
            firstNanoseconds + Int64((Double(index) * period).rounded())
        }
    }

    /// Share of the drift between continued and drain-based times corrected per batch.
    public let steering: Double
    /// The rate error a cheap board may have before its rate is measured: "off by up to a few
    /// percent" (OutputRateEstimator), taken as 2.5 %.
    static let unmeasuredRateError = 0.025
    private var lastNanoseconds: Int64?

    public init(steering: Double = 0.1) {
        self.steering = steering
    }

    /// Stamps `count` samples drained at `now`, at `rateHz`. `broken` says the driver knows
    /// samples were lost before them (overflow, re-initialisation).
    public mutating func stamp(count: Int, drainedAt now: Int64, rateHz: Double, broken: Bool = false) -> Batch {
        stamp(count: count, drainedFrom: now, to: now, rateHz: rateHz, broken: broken)
    }

    /// Stamps `count` samples drained between `start` and `end`. The chip counted them near the
    /// start, but the thread can be held up anywhere in between, so the times bound the evidence:
    /// samples count as lost only if even `start` is too late for them, and as surplus only if
    /// even `end` is too early. A drain held up by the scheduler is then no gap.
    /// `rateMeasured` false: `rateHz` is the nominal rate, which the chip may miss by a few percent.
    public mutating func stamp(count: Int, drainedFrom start: Int64, to end: Int64, rateHz: Double, broken: Bool = false,
                               rateMeasured: Bool = true) -> Batch {
        let batch = place(count: count, start: start, end: max(start, end), rateHz: rateHz, broken: broken, rateMeasured: rateMeasured)
        if count > 0 { lastNanoseconds = batch.timestamp(of: count - 1) }
        return batch
    }

    private func place(count: Int, start: Int64, end: Int64, rateHz: Double, broken: Bool, rateMeasured: Bool) -> Batch {
        let period = 1e9 / rateHz
        let periodNanoseconds = Int64(period.rounded())
        let span = Int64((Double(max(0, count - 1)) * period).rounded())
        let fromStart = start - span
        guard count > 0 else {
            return Batch(firstNanoseconds: start, periodNanoseconds: periodNanoseconds, period: period, lostBefore: 0, restarted: false)
        }
        guard let last = lastNanoseconds else {
            return Batch(firstNanoseconds: fromStart, periodNanoseconds: periodNanoseconds, period: period, lostBefore: 0, restarted: true)
        }
        let continued = Double(last) + period
        let drift = Double(fromStart) - continued
        if broken || drift > 1.5 * period {
            // A break: the samples between the last stamp and this batch are gone. Never stamp
            // before the last sample, whatever the drain clock says.
            let first = max(fromStart, last + periodNanoseconds)
            let lost = max(0, Int((Double(first - last) / period).rounded()) - 1)
            return Batch(firstNanoseconds: first, periodNanoseconds: periodNanoseconds, period: period, lostBefore: lost, restarted: true)
        }
        // Within a period and a half: the same run. Steer a share of the drift, at most a
        // quarter period either way (more while the rate is not yet measured).
        // Stamped at the nominal rate, a board off by e falls e·count periods behind (or ahead)
        // per batch: a 20-sample batch at 1 kHz, 0.5 ms at 2.5 %, which a tenth of the drift only
        // matches at 5 ms, past the 1.5 periods that mean lost samples. Until the rate is
        // measured, large batches that fall behind are steered as firmly as that needs (all of
        // the drift, up to a period and a half, for 40 samples and more); small
        // ones as ever, and so are stamps ahead of the clock (a fast board or a drain held up
        // before its count), which can never be taken for a loss.
        let needed = rateMeasured || drift <= 0 ? 0 : Double(count) * Self.unmeasuredRateError
        let gain = min(1, max(steering, needed))
        let limit = min(1.5, max(0.25, 1.5 * needed)) * period
        let correction = max(-limit, min(limit, gain * drift))
        let first = Int64((continued + correction).rounded())
        let lateDrift = Double(end - span) - continued
        let surplus = lateDrift < -1.5 * period ? Int((-lateDrift / period).rounded(.down)) : 0
        if surplus > 0 {
            // Never ahead of the clock: the batch goes between the last stamp and the drain's
            // end, more closely spaced. A chip faster than the rate stamped with (further off
            // than the estimator trusts, so never measured) would else run ahead without bound:
            // at 15 % fast about five minutes an hour, and a fix would be judged against a
            // sample time minutes in the future.
            // At least a quarter period apart: a poll a little early after stamps already a
            // little ahead leaves almost no room, and samples nanoseconds apart would give the
            // fusion no time step at all.
            let squeezed = max(0.25 * period, Double(end - last) / Double(count))
            return Batch(firstNanoseconds: Int64((Double(last) + squeezed).rounded()), periodNanoseconds: Int64(squeezed.rounded()),
                         period: squeezed, lostBefore: 0, restarted: false, surplus: surplus)
        }
        return Batch(firstNanoseconds: first, periodNanoseconds: periodNanoseconds, period: period, lostBefore: 0, restarted: false, surplus: surplus)
    }

    /// Forgets the run: the next batch starts from its drain time (a chip re-initialised).
    public mutating func restart() { lastNanoseconds = nil }
}

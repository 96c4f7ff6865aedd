/// How a live sensor is doing, as its source sees it: what the status, the metrics and the page
/// show beside the detector's own view (samples, drops, stalls). Counters only grow.
public struct SensorCondition: Sendable, Equatable {
    /// The chip identified, such as "MPU-6050 at 0x68"; nil before it is found.
    public var chip: String?
    /// Why the sensor cannot deliver now (unplugged, bus hung), nil while it streams.
    public var fault: String?
    /// When the source last began to look for a lost chip (`MonotonicTime`, real time even on a
    /// simulator's scaled clock); nil while it streams. A fault is only believed to be looked past
    /// while this is recent: a thread stuck in the search leaves it to age.
    public var searchedAtNanoseconds: Int64?
    /// The output rate the chip was set to, Hz.
    public var nominalRateHz: Double
    /// The rate measured from the samples the chip really delivered, Hz (cheap boards drift).
    public var measuredRateHz: Double?
    /// Breaks in the stream (an overflowed FIFO, an unplugged chip, a late poll) and the samples
    /// they are estimated to have lost.
    public var gaps: UInt64 = 0
    public var lostSamples: UInt64 = 0
    /// Readings discarded because they repeated the previous one (a poll that came too early).
    public var duplicates: UInt64 = 0
    /// FIFO overflows and resets.
    public var overflows: UInt64 = 0
    /// Times the chip was lost and initialised again.
    public var recoveries: UInt64 = 0
    /// Bus transfers that failed.
    public var busErrors: UInt64 = 0

    public init(nominalRateHz: Double) {
        self.nominalRateHz = nominalRateHz
    }

    /// Parts per million the measured rate is off its nominal value.
    public var rateErrorPPM: Double? {
        measuredRateHz.map { ($0 / nominalRateHz - 1) * 1e6 }
    }
}

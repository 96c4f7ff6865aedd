import FallDetect

/// One configured chip streaming: each `cycle` drains it, stamps the readings, maps them onto the
/// body frame and pushes them into the ring, and keeps the counts the status shows. A break the
/// driver reports (an overflow) or the source knows of (a re-initialised chip) is carried to the
/// next batch, which starts a new run of timestamps and records the gap with its length.
final class IMUStream {
    let driver: any IMUDriver
    let configuration: IMUConfiguration
    private let clock: any IMUClock
    private let axes: AxisMapping
    private var timestamper = SampleTimestamper()
    private(set) var estimator: OutputRateEstimator
    private var readings: [IMUReading] = []
    private var samples: [IMUSample] = []
    /// Why the next batch follows a break, if it does.
    private var pendingBreak: String?

    init(driver: any IMUDriver, configuration: IMUConfiguration, clock: any IMUClock, axes: AxisMapping, resumingAfter reason: String? = nil) {
        self.driver = driver
        self.configuration = configuration
        self.clock = clock
        self.axes = axes
        estimator = OutputRateEstimator(nominalHz: configuration.rateHz)
        pendingBreak = reason
        readings.reserveCapacity(max(64, configuration.watermark * 4))
        samples.reserveCapacity(max(64, configuration.watermark * 4))
    }

    /// Nanoseconds to wait before the next drain: the watermark's worth of samples (one sample when
    /// polled), at most 50 ms so a stop request is seen.
    var drainInterval: Int64 {
        let seconds = Double(max(1, configuration.watermark)) / estimator.rateHz
        return Int64(min(0.05, seconds) * 1e9)
    }

    /// Continues from a previous stream of the same source: its last timestamp, so the gap a
    /// re-initialisation makes is measured and recorded.
    func continueTimestamps(from other: IMUStream) {
        timestamper = other.timestamper
    }

    /// Drains once; returns the samples pushed and records what the drain found in `condition`
    /// and `gaps`.
    func cycle(into producer: borrowing SampleRing.Producer, condition: inout SensorCondition, gaps: inout [RecordedEvent]) throws(IMUError) -> Int {
        readings.removeAll(keepingCapacity: true)
        // Drivers read the chip's count first, so the drain's start is when the batch was
        // counted; its end only bounds how late that could have been.
        let started = clock.nowNanoseconds()
        let report = try driver.drain(into: &readings)
        let ended = clock.nowNanoseconds()
        if report.overflowed {
            condition.overflows += 1
            pendingBreak = report.detail ?? "FIFO overflow"
            estimator.restart()
            return 0
        }
        guard !readings.isEmpty else { return 0 }
        if pendingBreak == nil { estimator.drained(readings.count, at: started) }
        let batch = timestamper.stamp(count: readings.count, drainedFrom: started, to: ended, rateHz: estimator.rateHz, broken: pendingBreak != nil,
                                      rateMeasured: estimator.estimateHz != nil)
        if batch.lostBefore > 0 || (pendingBreak != nil && batch.restarted) {
            condition.gaps += 1
            condition.lostSamples += UInt64(batch.lostBefore)
            gaps.append(RecordedEvent(timestampNanoseconds: batch.firstNanoseconds, kind: .gap, value: Int32(clamping: batch.lostBefore),
                                      text: pendingBreak ?? "late drain"))
        }
        if pendingBreak != nil { estimator.drained(0, at: started) }
        pendingBreak = nil
        condition.duplicates += UInt64(batch.surplus)
        condition.measuredRateHz = estimator.estimateHz
        samples.removeAll(keepingCapacity: true)
        for (index, reading) in readings.enumerated() {
            samples.append(IMUSample(
                timestampNanoseconds: batch.timestamp(of: index),
                acceleration: axes.apply(reading.acceleration), angularRate: axes.apply(reading.angularRate)))
        }
        samples.withUnsafeBufferPointer { _ = producer.push(contentsOf: $0) }
        return samples.count
    }
}

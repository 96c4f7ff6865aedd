import FallDetect
import Histogram

/// The detection service's counters, shared between its thread and the API under a lock.
struct LiveStatistics: Sendable {
    var health: SensorHealth = .starting
    var samples: UInt64 = 0
    var dropped: UInt64 = 0
    var detections = 0
    var lastDetection: DetectionEvent?
    /// MonotonicTime of the detector's last pass, and of the last sample it consumed.
    var lastPassNanoseconds: Int64 = 0
    var lastSampleNanoseconds: Int64?
    /// MonotonicTime when the detector last consumed a sample (the watchdog's evidence of work).
    var lastConsumedNanoseconds: Int64?
    /// Samples per second over the last few seconds, measured.
    var measuredRate: Double = 0
    var suspectGyroscopeEpisodes = 0
    /// Whether the device moves with a body (`WearMonitor`).
    var worn = true
    /// Sample-to-decision latency in microseconds: from a batch reaching the ring to the end of
    /// the detector pass that judged it.
    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
}

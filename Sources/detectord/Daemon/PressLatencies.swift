import Histogram
import Synchronization

/// Keychain press to workflow decision, in microseconds: from the notification's arrival on the
/// ATT bearer to the transaction that applied its meaning.
final class PressLatencies: Sendable {
    private let histogram = Mutex(Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))

    func record(nanoseconds: Int64) {
        let micros = UInt64(clamping: max(0, nanoseconds / 1000))
        histogram.withLock { _ = $0.record(min(micros, 60_000_000)) }
    }

    var count: UInt64 { histogram.withLock { $0.totalCount } }

    /// The latency at `percentile` (0–100), microseconds.
    func microseconds(atPercentile percentile: Double) -> UInt64 {
        histogram.withLock { $0.valueAtPercentile(percentile) }
    }
}

import CoreMetrics
import FallDetect
import Prometheus
import Synchronization

/// The daemon's metrics through swift-metrics, kept in its own Prometheus registry (not the
/// process-wide bootstrap, so tests can run several daemons in one process) and served at
/// `/metrics`. Counters the detector thread keeps itself (samples, drops) are added in when the
/// page is scraped, so the per-sample path never takes a metric's lock; latency is recorded once
/// per batch.
final class DaemonMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let samples: CoreMetrics.Counter
    private let dropped: CoreMetrics.Counter
    /// What was added to the two counters so far.
    private let copied = Mutex<(samples: UInt64, dropped: UInt64)>((0, 0))
    private let rate: CoreMetrics.Gauge
    private let sensorFault: CoreMetrics.Gauge
    private let decision: CoreMetrics.Timer
    /// The source's counters, added in at scrape time like the detector's.
    private let sensorCounters = Mutex<[String: UInt64]>([:])
    private let chipRate: CoreMetrics.Gauge

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Decision latency lives in microseconds to a few milliseconds.
        factory.durationHistogramBuckets["detectord_decision_latency_seconds"] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(250),
        ]
        self.factory = factory
        samples = CoreMetrics.Counter(label: "detectord_samples_total", factory: factory)
        dropped = CoreMetrics.Counter(label: "detectord_ring_dropped_total", factory: factory)
        rate = CoreMetrics.Gauge(label: "detectord_sample_rate_hz", factory: factory)
        sensorFault = CoreMetrics.Gauge(label: "detectord_sensor_fault", factory: factory)
        decision = CoreMetrics.Timer(label: "detectord_decision_latency_seconds", factory: factory)
        chipRate = CoreMetrics.Gauge(label: "detectord_sensor_chip_rate_hz", factory: factory)
    }

    func detection(_ event: DetectionEvent) {
        CoreMetrics.Counter(label: "detectord_detections_total", dimensions: [("kind", event.kind.rawValue), ("detector", event.detector)], factory: factory)
            .increment()
    }

    func message(channel: String, outcome: String) {
        CoreMetrics.Counter(label: "detectord_messages_total", dimensions: [("channel", channel), ("outcome", outcome)], factory: factory).increment()
    }

    func transition(to state: EmergencyState) {
        CoreMetrics.Counter(label: "detectord_transitions_total", dimensions: [("to", state.rawValue)], factory: factory).increment()
    }

    func decisionLatency(microseconds: UInt64) {
        decision.recordNanoseconds(Int64(clamping: microseconds) * 1000)
    }

    /// Adds what the detector counted since the last scrape, then renders the Prometheus text format.
    func render(_ statistics: LiveStatistics, condition: SensorCondition? = nil) -> String {
        if let condition { record(condition) }
        let (newSamples, newDropped) = copied.withLock { c in
            defer { c = (max(c.samples, statistics.samples), max(c.dropped, statistics.dropped)) }
            return (statistics.samples &- min(c.samples, statistics.samples), statistics.dropped &- min(c.dropped, statistics.dropped))
        }
        samples.increment(by: Int64(clamping: newSamples))
        dropped.increment(by: Int64(clamping: newDropped))
        rate.record(statistics.measuredRate)
        sensorFault.record(statistics.health.isFault || condition?.fault != nil ? 1 : 0)
        return registry.emitToString()
    }

    /// Counters of the source (gaps, lost samples, overflows, recoveries, bus errors) as
    /// Prometheus counters, incremented by what grew since the last scrape.
    private func record(_ condition: SensorCondition) {
        let values: [(String, UInt64)] = [
            ("detectord_sensor_gaps_total", condition.gaps), ("detectord_sensor_lost_samples_total", condition.lostSamples),
            ("detectord_sensor_duplicates_total", condition.duplicates), ("detectord_sensor_fifo_overflows_total", condition.overflows),
            ("detectord_sensor_recoveries_total", condition.recoveries), ("detectord_sensor_bus_errors_total", condition.busErrors),
        ]
        let grown = sensorCounters.withLock { copied in
            values.map { label, value in
                defer { copied[label] = max(copied[label] ?? 0, value) }
                return (label, value &- min(copied[label] ?? 0, value))
            }
        }
        for (label, delta) in grown {
            CoreMetrics.Counter(label: label, factory: factory).increment(by: Int64(clamping: delta))
        }
        if let rate = condition.measuredRateHz { chipRate.record(rate) }
    }
}

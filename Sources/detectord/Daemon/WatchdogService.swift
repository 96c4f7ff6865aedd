import FallDetect
import ServiceLifecycle

/// Tells systemd the daemon is alive, but only while the detector is really consuming samples:
/// it consumed one within the last two seconds (or, after a replay that does not loop has ended,
/// its thread still passes). A wedged detector or a sensor silent for good therefore stops the
/// pings, and systemd restarts the daemon after `WatchdogSec`, which reopens the bus; a short
/// stall is only a reported fault. A source that knows it lost its chip (unplugged, the bus
/// gone) and is looking for it keeps the pings going while the detector passes: a restart would
/// not bring the chip back sooner, and every 12 s it would drop the keychain link (an SOS press
/// then is lost), the API and the alarm; but only while its attempts go on (a search stuck in a
/// read stops them too). Also posts a status line every `statusEvery` seconds.
struct WatchdogService: Service {
    let notifier: SystemdNotifier
    let status: DaemonStatus
    let hub: EventHub
    let statusEvery: Double

    func run() async throws {
        let ping = notifier.watchdogInterval.map { $0 / 2 } ?? .seconds(1)
        var sinceStatus = 0.0
        let step = min(1.0, Double(ping.components.seconds) + Double(ping.components.attoseconds) / 1e18)
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let live = status.liveStatistics()
            if Self.alive(live, sensor: status.sensorCondition(), now: MonotonicTime.nowNanoseconds()) {
                notifier.watchdog()
            }
            sinceStatus += step
            if statusEvery > 0, sinceStatus >= statusEvery {
                sinceStatus = 0
                let line = "\(live.health) \(live.samples) samples (\(Int(live.measuredRate.rounded())) Hz), \(live.dropped) dropped, \(live.detections) detections"
                notifier.status(line)
                var fields: [(String, JSONLine.Value)] = [
                    ("sensor", .string(live.health.description)), ("samples", .int(Int(live.samples))),
                    ("rate_hz", .number(DaemonStatus.tenths(live.measuredRate))), ("dropped", .int(Int(live.dropped))),
                    ("detections", .int(live.detections)),
                ]
                if live.latency.totalCount > 0 {
                    fields.append(("latency_p99_us", .int(Int(live.latency.valueAtPercentile(99)))))
                }
                if let machine = try? status.store.workflow() { fields.append(("state", .string(machine.displayedState.rawValue))) }
                hub.publish(DaemonEvent("status", at: WorkflowService.utcNow(), fields))
            }
            try? await Task.sleep(for: .seconds(step))
        }
    }

    /// How long a search for a lost chip may go without a new attempt before the fault is no
    /// longer believed: the source waits at most 5 s between attempts, and an attempt on a hung
    /// bus meets a 1 s timeout per transfer on a few addresses.
    static let searchStaleNanoseconds: Int64 = 20_000_000_000

    /// Whether the daemon does its work at `now` (MonotonicTime), so systemd should be told so.
    static func alive(_ live: LiveStatistics, sensor: SensorCondition?, now: Int64) -> Bool {
        let consuming = live.lastConsumedNanoseconds.map { now - $0 < 2_000_000_000 } ?? false
        let passing = live.lastPassNanoseconds > 0 && now - live.lastPassNanoseconds < 2_000_000_000
        let endedButPassing = live.health == .ended && passing
        // Not once the source has failed for good: its last fault stays set, but nothing looks.
        var failed = false
        if case .failed = live.health { failed = true }
        // Nor when the search itself is stuck (a read that never returns): a restart opens the bus anew.
        let looking = sensor?.searchedAtNanoseconds.map { now - $0 < searchStaleNanoseconds } ?? false
        let searching = passing && !failed && sensor?.fault != nil && looking
        return consuming || endedButPassing || searching
    }
}

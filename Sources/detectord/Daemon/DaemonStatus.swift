import FallDetect
import Foundation
import Synchronization

/// Everything `GET /api/status` and `detectord ctl status` report, gathered when asked: the
/// workflow from its database, the detector's counters, the GNSS receiver's health.
final class DaemonStatus: Sendable {
    let store: WorkflowStore
    /// Why the database could not be written at start, when the workflow runs from memory.
    let storageProblem: String?
    let sensorSummary: String
    let nominalRate: Double
    /// The running profile's name (the page may switch it).
    var profile: String { profileName.withLock { $0 } }
    private let profileName: Mutex<String>
    let gnssSummary: String
    /// The source's own account of its sensor (a chip's drift, gaps, faults), when it has one.
    let sensorCondition: @Sendable () -> SensorCondition?
    let startedAt = MonotonicTime.nowNanoseconds()
    private let detector = Mutex<DetectorLoop?>(nil)
    private let gnss = Mutex<(any GNSSSource)?>(nil)
    private let gnssState = Mutex<String>("none")
    private let keychain = Mutex<KeychainService?>(nil)
    /// The clock the workflow times by: while a clock step waits for the store, the deadlines
    /// are still on the old clock, and so must be the time left that the page shows.
    private let clock = Mutex<WallClock?>(nil)
    /// A channel's radio signal (the SMS modem's last +CSQ), in dBm.
    private let channelSignal: @Sendable (String) -> Int?

    init(store: WorkflowStore, sensorSummary: String, nominalRate: Double, profile: String, gnssSummary: String,
         sensorCondition: @escaping @Sendable () -> SensorCondition? = { nil },
         channelSignal: @escaping @Sendable (String) -> Int? = { _ in nil }, storageProblem: String? = nil) {
        self.channelSignal = channelSignal
        self.store = store
        self.storageProblem = storageProblem
        self.sensorCondition = sensorCondition
        self.sensorSummary = sensorSummary
        self.nominalRate = nominalRate
        profileName = Mutex(profile)
        self.gnssSummary = gnssSummary
    }

    func setProfile(_ name: String) { profileName.withLock { $0 = name } }
    func attach(detector loop: DetectorLoop) { detector.withLock { $0 = loop } }
    func attach(gnss source: any GNSSSource) { gnss.withLock { $0 = source } }
    func setGNSSState(_ text: String) { gnssState.withLock { $0 = text } }
    /// System minus the receiver's UTC, seconds, while they disagree (`GNSSClockCheck`).
    private let clockOffset = Mutex<Double?>(nil)
    func setClockOffset(_ seconds: Double?) { clockOffset.withLock { $0 = seconds } }
    func attach(keychain service: KeychainService?) { keychain.withLock { $0 = service } }
    func attach(clock wall: WallClock) { clock.withLock { $0 = wall } }

    func liveStatistics() -> LiveStatistics {
        detector.withLock { $0 }?.statistics.withLock { $0 } ?? LiveStatistics()
    }

    func report(at given: Int64? = nil) throws -> [String: Any] {
        let utc = given ?? clock.withLock { $0 }?.now() ?? WorkflowService.utcNow()
        let now = MonotonicTime.nowNanoseconds()
        let machine = try store.workflow()
        let live = liveStatistics()
        // Under duress the device shows what a correct disarm leaves: no emergency, no tracking.
        let shown = !machine.underDuress
        var workflow: [String: Any] = [
            "state": machine.displayedState.rawValue, "alarm": machine.alarmOn, "tracking": shown && machine.isTracking,
            "protecting": machine.isProtecting,
        ]
        // Only with an emergency shown: after a test alarm the PIN left "test" and the duress
        // PIN "manual" (a test is a real emergency under duress), which told the two apart.
        if machine.displayedState != .noEmergency, let trigger = machine.trigger { workflow["trigger"] = trigger.rawValue }
        // After the countdown the page offers the survey and "resume" once the PIN was given.
        if machine.displayedState != .noEmergency { workflow["disarmed"] = machine.disarmed }
        if let left = machine.countdownRemaining(at: utc) { workflow["countdown_s"] = Self.tenths(left) }
        if shown, let left = machine.trackingRemaining(at: utc) { workflow["tracking_s"] = Self.tenths(left) }
        if shown, let next = machine.nextKeychainMessage(at: utc) { workflow["next_keychain_message_s"] = Self.tenths(next) }
        // The workflow's own record of a sensor fault (kept in SQLite, so it survives a restart).
        if let since = try store.transaction({ tx in try tx.sensorFaultSince() }) { workflow["sensor_fault_since"] = DaemonEvent.timestamp(since) }
        var sensor: [String: Any] = [
            "source": sensorSummary, "health": live.health.description, "fault": live.health.isFault,
            "samples": live.samples, "dropped": live.dropped, "rate_hz": Self.tenths(live.measuredRate),
            "nominal_rate_hz": nominalRate, "suspect_gyroscope_episodes": live.suspectGyroscopeEpisodes,
        ]
        if let last = live.lastSampleNanoseconds { sensor["last_sample_age_s"] = Self.tenths(Double(now - last) / 1e9) }
        if let condition = sensorCondition() { Self.add(condition, to: &sensor) }
        var detector: [String: Any] = ["profile": profile, "detections": live.detections]
        // Not during an emergency shown: a device lying still then is as likely a wearer who
        // cannot move, and "not worn" beside the alarm could have it taken for a false one.
        if machine.displayedState.isSettled {
            detector["worn"] = live.worn
            if let since = try store.transaction({ tx in try tx.notWornSince() }) {
                detector["not_worn_since"] = DaemonEvent.timestamp(since)
                detector["worn"] = false
            }
        }
        if live.latency.totalCount > 0 {
            detector["latency_us"] = [
                "p50": live.latency.valueAtPercentile(50), "p99": live.latency.valueAtPercentile(99), "max": live.latency.max,
                "count": live.latency.totalCount,
            ]
        }
        if let e = live.lastDetection {
            detector["last_detection"] = [
                "kind": e.kind.rawValue, "detector": e.detector, "confidence": (Double(e.confidence) * 100).rounded() / 100,
                "summary": e.summary, "age_s": Self.tenths(Double(now - e.timestampNanoseconds) / 1e9),
            ]
        }
        var gnssReport: [String: Any] = ["source": gnssSummary, "state": gnssState.withLock { $0 }]
        if let offset = clockOffset.withLock({ $0 }) { gnssReport["clock_offset_s"] = Self.tenths(offset) }
        if let source = gnss.withLock({ $0 }) {
            let health = source.health
            gnssReport["quality"] = health.quality(at: now).rawValue
            if let age = health.positionAge(at: now) { gnssReport["position_age_s"] = Self.tenths(age) }
            if let p = health.lastPosition, let lat = p.latitude, let lon = p.longitude {
                gnssReport["position"] = ["latitude": lat, "longitude": lon]
            }
        }
        let contacts = try store.contacts()
        let health = try store.channelHealth()
        var channelNames = ["console"]
        for contact in contacts where !channelNames.contains(contact.channel) { channelNames.append(contact.channel) }
        let channels: [[String: Any]] = channelNames.map { name in
            var entry: [String: Any] = ["name": name, "state": "reachable"]
            if let failing = health.first(where: { $0.channel == name }) {
                entry["state"] = failing.isDown ? "down" : "failing"
                entry["failures"] = failing.failures
            }
            if let dBm = channelSignal(name) { entry["signal_dbm"] = dBm }
            return entry
        }
        return [
            "workflow": workflow, "sensor": sensor, "detector": detector, "gnss": gnssReport,
            // Until DeviceLink's Bluetooth link is configured, the seam says so.
            "keychain": keychain.withLock { $0 }?.status ?? ["state": "not configured"],
            "person": machine.person?.fullName ?? NSNull(),
            "contacts": contacts.count,
            // Never the full number: the page shows this to anyone who can reach it before the PIN.
            "contact_list": contacts.map { ["name": $0.name, "phone": Self.masked($0.phone.e164), "channel": $0.channel] },
            "channels": channels,
            "outbox_waiting": try store.waiting().filter { !$0.isConcealed }.count,
            "storage": ["database": store.path, "durable": store.isDurable, "problem": storageProblem ?? NSNull()] as [String: Any],
            "uptime_s": Self.tenths(Double(now - startedAt) / 1e9),
        ]
    }

    /// The source's view: which chip, why it cannot deliver, its measured rate and its breaks.
    static func add(_ condition: SensorCondition, to sensor: inout [String: Any]) {
        if let chip = condition.chip { sensor["chip"] = chip }
        if let fault = condition.fault {
            sensor["fault"] = true
            sensor["fault_reason"] = fault
        }
        sensor["nominal_rate_hz"] = condition.nominalRateHz
        if let rate = condition.measuredRateHz {
            sensor["chip_rate_hz"] = (rate * 1000).rounded() / 1000
            sensor["chip_rate_error_ppm"] = condition.rateErrorPPM.map { $0.rounded() } ?? 0
        }
        sensor["gaps"] = condition.gaps
        sensor["lost_samples"] = condition.lostSamples
        sensor["duplicates"] = condition.duplicates
        sensor["overflows"] = condition.overflows
        sensor["recoveries"] = condition.recoveries
        sensor["bus_errors"] = condition.busErrors
    }

    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// "+3519•••••333": the country code and the last three digits, enough to tell contacts apart.
    static func masked(_ e164: String) -> String {
        guard e164.count > 7 else { return String(repeating: "•", count: e164.count) }
        return String(e164.prefix(4)) + String(repeating: "•", count: e164.count - 7) + String(e164.suffix(3))
    }
}

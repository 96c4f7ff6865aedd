import FallDetect

/// `[workflow]`: the emergency workflow's timings. Optional: the product's defaults.
struct WorkflowConfiguration: Sendable, Equatable {
    var settings: WorkflowSettings
    /// Countdowns under `minimumCountdown` are allowed, and the daemon labels them as a
    /// shortened demo, so nobody mistakes a demo device for a protected one.
    var demo: Bool

    static let keys = ["countdown_seconds", "sos_countdown_seconds", "tracking_minutes", "tracking_interval_seconds", "demo"]
    /// Shorter than this, a wearer who fell has too little time to cancel a false alarm.
    static let minimumCountdown = 30.0
    /// Longer than this, help for a wearer who cannot answer comes too late.
    static let maximumCountdown = 600.0

    init(settings: WorkflowSettings = WorkflowSettings(), demo: Bool = false) {
        self.settings = settings
        self.demo = demo
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        let demo = table.contains("demo") ? table.bool("demo") : false
        var settings = WorkflowSettings()
        var ok = demo != nil
        for (key, keyPath) in [("countdown_seconds", \WorkflowSettings.countdown), ("sos_countdown_seconds", \.manualCountdown)] {
            guard table.contains(key) else { continue }
            guard let seconds = table.number(key, in: 1...Self.maximumCountdown) else {
                ok = false
                continue
            }
            if seconds < Self.minimumCountdown, demo != true {
                let minimum = ConfigurationTable.text(Self.minimumCountdown)
                table.context.report(table.field(key), "is \(ConfigurationTable.text(seconds)) s; at least \(minimum) s, or set demo = true for a shortened demo countdown")
                ok = false
                continue
            }
            settings[keyPath: keyPath] = seconds
        }
        if table.contains("tracking_minutes") {
            if let minutes = table.number("tracking_minutes", in: 0...1440) {
                settings.trackingDuration = minutes * 60
            } else {
                ok = false
            }
        }
        if table.contains("tracking_interval_seconds") {
            // Under a minute floods the contacts' phones, except in a demo that has to show it.
            if let seconds = table.number("tracking_interval_seconds", in: 5...3600) {
                if seconds < 60, demo != true {
                    table.context.report(table.field("tracking_interval_seconds"), "is \(ConfigurationTable.text(seconds)) s; at least 60 s, or set demo = true")
                    ok = false
                } else {
                    settings.trackingInterval = seconds
                }
            } else {
                ok = false
            }
        }
        guard ok, let demo else { return nil }
        self.init(settings: settings, demo: demo)
    }
}

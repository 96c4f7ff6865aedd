import FallDetect

/// `[keychain.simulated]`: the fake iTag of `kind = "simulated"`: its battery and the presses it
/// makes by itself (the demo's "a press raises an SOS"), each `{ at_seconds = 5, pattern = "single" }`
/// counted from the daemon's start.
struct SimulatedKeychainSettings: Sendable, Equatable {
    struct Press: Sendable, Equatable {
        var atSeconds: Double
        var pattern: KeychainPress
    }

    var battery = 96
    var presses: [Press] = []

    static let keys = ["battery", "presses"]

    init() {}

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        if table.contains("battery") {
            guard let battery = table.integer("battery", in: 0...100) else { return nil }
            self.battery = battery
        }
        var ok = true
        for press in table.tables("presses") {
            press.rejectUnknownKeys(known: ["at_seconds", "pattern"])
            let at = press.number("at_seconds", in: 0...86_400, required: "seconds after the start")
            let pattern = press.string("pattern").map { press.oneOf("pattern", $0, KeychainSettings.patterns) }
            guard let at, pattern != .some(nil) else { ok = false; continue }
            presses.append(Press(atSeconds: at, pattern: pattern.flatMap { $0 }.flatMap(KeychainPress.init(rawValue:)) ?? .single))
        }
        guard ok else { return nil }
    }
}

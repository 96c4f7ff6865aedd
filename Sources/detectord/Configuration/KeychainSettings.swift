import DeviceLink
import FallDetect

/// `[keychain]`: the Bluetooth LE panic button. Optional; without it there is no keychain.
/// `kind = "itag"` talks to a real tag through the kernel's Bluetooth sockets, using the address
/// `detectord pair` bound (or `address` here); `"simulated"` runs a fake iTag inside the daemon,
/// reached over the same ATT code, for demos and tests.
struct KeychainSettings: Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable { case itag, simulated, none }

    var kind: Kind
    /// Overrides the bound keychain's address.
    var address: String?
    var addressType: BluetoothAddressType = .public
    var profile = KeychainProfile()
    var timing = PressTiming()
    var sosPattern: KeychainPress = .single
    /// Off by default: a panic button that can cancel is a risk under duress.
    var imFinePattern: KeychainPress?
    /// Seconds without the link before the status warns.
    var linkLostWarning: Double = 120
    /// Seconds without the link before the person gets a message; nil never.
    var linkLostMessage: Double?
    var reconnect = KeychainReconnect()
    var simulated = SimulatedKeychainSettings()

    static let keys = ["kind", "address", "address_type", "button_service", "button_characteristic", "alarm_level", "link_loss_alert",
                       "press_debounce_ms", "press_window_ms", "sos_pattern", "im_fine_pattern", "link_lost_warning_minutes",
                       "link_lost_message_minutes", "request_timeout_seconds", "reconnect_max_seconds", "simulated"]
    static let patterns = KeychainPress.allCases.map(\.rawValue)

    init(kind: Kind = .none) { self.kind = kind }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        var ok = true
        func check<T>(_ value: T?, _ key: String) -> T? {
            if value == nil, table.contains(key) { ok = false }
            return value
        }
        kind = check(table.contains("kind") ? table.choice("kind") : .itag, "kind") ?? .none
        if let text = table.string("address") {
            if BluetoothAddress(text) == nil {
                table.context.report(table.field("address"), "\"\(text)\" is not a Bluetooth address like FF:FF:10:20:30:40")
                ok = false
            } else {
                address = text.uppercased()
            }
        }
        if let type: BluetoothAddressType = check(table.choice("address_type"), "address_type") { addressType = type }
        for (key, keyPath) in [("button_service", \KeychainProfile.buttonService), ("button_characteristic", \KeychainProfile.buttonCharacteristic)] {
            guard let text = table.string(key) else { ok = ok && !table.contains(key); continue }
            guard let uuid = BluetoothUUID(text) else {
                table.context.report(table.field(key), "\"\(text)\" is not a UUID: 4 hex digits (FFE1) or 128-bit (6e400003-b5a3-...)")
                ok = false
                continue
            }
            profile[keyPath: keyPath] = uuid
        }
        if let level = check(table.string("alarm_level").flatMap { table.oneOf("alarm_level", $0, ["mild", "high"]) }, "alarm_level") {
            profile.alarmLevel = level == "mild" ? 1 : 2
        }
        if let flag = check(table.bool("link_loss_alert"), "link_loss_alert") { profile.linkLossAlert = flag }
        if let seconds = check(table.number("request_timeout_seconds", in: 1...30), "request_timeout_seconds") { profile.requestTimeout = seconds }
        if let debounce = check(table.integer("press_debounce_ms", in: 20...1000), "press_debounce_ms") { timing.debounce = Double(debounce) / 1000 }
        if let window = check(table.integer("press_window_ms", in: 200...3000), "press_window_ms") { timing.window = Double(window) / 1000 }
        do { timing = try timing.validated() } catch {
            table.context.report(table.field("press_debounce_ms"), error.description)
            ok = false
        }
        if let text = table.string("sos_pattern") {
            sosPattern = check(table.oneOf("sos_pattern", text, Self.patterns).flatMap(KeychainPress.init(rawValue:)), "sos_pattern") ?? .single
        }
        if let text = table.string("im_fine_pattern"), text != "none" {
            imFinePattern = check(table.oneOf("im_fine_pattern", text, Self.patterns + ["none"]).flatMap(KeychainPress.init(rawValue:)), "im_fine_pattern")
            if imFinePattern == sosPattern {
                table.context.report(table.field("im_fine_pattern"), "\"\(text)\" is also the SOS pattern; choose another or \"none\"")
                ok = false
            }
        }
        if let minutes = check(table.number("link_lost_warning_minutes", in: 0.1...1440), "link_lost_warning_minutes") { linkLostWarning = minutes * 60 }
        if let minutes = check(table.number("link_lost_message_minutes", in: 0...10_080), "link_lost_message_minutes") {
            linkLostMessage = minutes > 0 ? minutes * 60 : nil
        }
        if let seconds = check(table.number("reconnect_max_seconds", in: 1...3600), "reconnect_max_seconds") { reconnect.maximumDelay = seconds }
        if table.contains("simulated") {
            guard let sub = table.table("simulated"), let simulated = SimulatedKeychainSettings(sub) else { return nil }
            self.simulated = simulated
        }
        guard ok else { return nil }
    }
}

import DeviceLink
import FallDetect
import Logging

/// Makes the daemon's keychain link from `[keychain]` and the binding `detectord pair` stored:
/// a `BluetoothKeychain` over L2CAP for `kind = "itag"`, or over a fake iTag's socket pair for
/// `"simulated"` (the same ATT client, profile and press handling; only the radio differs).
struct KeychainLinkFactory: Sendable {
    let settings: KeychainSettings
    let store: WorkflowStore
    let policy: KeychainPressPolicy
    /// The simulated keychain's neighbourhood; nil for a real tag.
    let radio: SimulatedKeychainRadio?

    init(settings: KeychainSettings, store: WorkflowStore) throws {
        self.settings = settings
        self.store = store
        policy = try KeychainPressPolicy(sos: settings.sosPattern, imFine: settings.imFinePattern)
        if settings.kind == .simulated {
            let radio = try SimulatedKeychainRadio.demo(pressesWhenBeeping: false)
            radio.all.first?.peripheral.setBattery(UInt8(clamping: settings.simulated.battery))
            self.radio = radio
        } else {
            radio = nil
        }
    }

    /// The keychain to connect to: `[keychain] address`, else the bound one; the simulated kind
    /// falls back to its near tag so a demo needs no pairing. Throws when the binding cannot be
    /// read: that is not "no keychain", and the service retries it.
    func target() throws -> (address: BluetoothAddress, type: BluetoothAddressType, name: String)? {
        if let text = settings.address, let address = BluetoothAddress(text) { return (address, settings.addressType, "keychain") }
        if let bound = try store.snapshot({ try $0.keychainBinding() }), let address = BluetoothAddress(bound.address) {
            return (address, BluetoothAddressType(rawValue: bound.addressType) ?? .public, bound.name)
        }
        if let near = radio?.all.first { return (near.peripheral.address, .public, near.peripheral.name) }
        return nil
    }

    func makeLink() throws -> (any KeychainLink)? {
        guard let target = try target() else { return nil }
        let connector: any KeychainConnector = radio?.connector(for: target.address, type: target.type)
            ?? L2CAPConnector(address: target.address, addressType: target.type)
        let simulated = radio == nil ? "" : ", simulated"
        return BluetoothKeychain(
            summary: "\(target.name) \(target.address)\(simulated)", connector: connector, profile: settings.profile, timing: settings.timing,
            decidesSingleAtOnce: !policy.usesLongerPatterns, reconnect: settings.reconnect)
    }

    /// The fake tag the simulated keychain connects to.
    func simulatedTag() -> FakeGATTPeripheral? {
        guard let radio, let target = try? target() else { return nil }
        return radio.tag(target.address)?.peripheral
    }

    /// Presses the simulated keychain (`POST /api/keychain/press`); false for a real one.
    func pressSimulated(_ pattern: KeychainPress) -> Bool {
        guard let tag = simulatedTag() else { return false }
        Self.press(tag, pattern, spacing: settings.timing.debounce + 0.1)
        return true
    }

    /// Moves the simulated keychain out of range (its link drops and connects fail) or back, and
    /// sets its battery (`POST /api/keychain/simulate`: demos and the page's tests); false for a
    /// real one.
    func simulate(inRange: Bool?, battery: Int?) -> Bool {
        guard let radio, let target = try? target(), let tag = radio.tag(target.address) else { return false }
        if let inRange {
            tag.connector.inRange = inRange
            if !inRange { tag.peripheral.disconnect() }
        }
        if let battery { tag.peripheral.setBattery(UInt8(clamping: battery)) }
        return true
    }

    /// The simulated keychain's scripted presses, from the daemon's start.
    func playScript() async {
        guard let tag = simulatedTag() else { return }
        var elapsed = 0.0
        for press in settings.simulated.presses.sorted(by: { $0.atSeconds < $1.atSeconds }) {
            try? await Task.sleep(for: .milliseconds(Int((press.atSeconds - elapsed) * 1000)))
            elapsed = press.atSeconds
            if Task.isCancelled { return }
            Self.press(tag, press.pattern, spacing: settings.timing.debounce + 0.1)
        }
    }

    /// Presses the simulated tag in a pattern, each press `spacing` apart (within the window).
    static func press(_ tag: FakeGATTPeripheral, _ pattern: KeychainPress, spacing: Double) {
        let count = switch pattern { case .single: 1; case .double: 2; case .triple: 3 }
        Task {
            for n in 0..<count {
                if n > 0 { try? await Task.sleep(for: .milliseconds(Int(spacing * 1000))) }
                tag.press()
            }
        }
    }
}

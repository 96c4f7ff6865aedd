/// The wearer's Bluetooth LE panic button as the daemon sees it: presses and link changes come
/// in, the beeper goes out. DeviceLink's `BluetoothKeychain` implements it on a real tag (or a
/// fake peripheral over the same ATT code); `SimulatedKeychain` implements it at the event level
/// for tests of the daemon's side.
public protocol KeychainLink: AnyObject, Sendable {
    /// For status and logs: "iTag AA:BB:CC:DD:EE:FF".
    var summary: String { get }
    /// Presses, link changes and battery readings, in order. Finishes when the link has stopped.
    var events: AsyncStream<KeychainEvent> { get }
    /// Makes the tag beep while `on` (the workflow's alarm), or stops it.
    func setBeeping(_ on: Bool) async
    /// A short beep on demand ("Is this your keychain?", `ctl beep`), whatever the alarm does.
    func testBeep(seconds: Double)
    /// Runs the link (connect, reconnect) until `stop()`.
    func run() async
    func stop()
}

extension KeychainLink {
    public func testBeep(seconds: Double) {}
    public func run() async {}
    public func stop() {}
}

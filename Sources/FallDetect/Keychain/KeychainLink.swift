/// The wearer's Bluetooth LE panic button as the daemon sees it: presses and link changes come
/// in, the beeper goes out. DeviceLink's Bluetooth code implements it on a real tag (issue 10);
/// simulators implement the same protocol, so the daemon's handling of a press is the code a
/// device runs.
public protocol KeychainLink: AnyObject, Sendable {
    /// For status and logs: "iTag AA:BB:CC:DD:EE:FF".
    var summary: String { get }
    /// Presses, link changes and battery readings, in order.
    var events: AsyncStream<KeychainEvent> { get }
    /// Makes the tag beep while `on` (the workflow's alarm), or stops it.
    func setBeeping(_ on: Bool) async
}

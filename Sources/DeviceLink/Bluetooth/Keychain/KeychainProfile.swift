/// Which GATT characteristics make a keychain: the button (iTags: service 0xFFE0, characteristic
/// 0xFFE1; configurable for other buttons), Immediate Alert for the beeper, Battery, Link Loss.
public struct KeychainProfile: Sendable, Equatable {
    public var buttonService = BluetoothUUID(0xFFE0)
    public var buttonCharacteristic = BluetoothUUID(0xFFE1)
    /// The Alert Level written while the alarm beeps: 1 mild, 2 high (Immediate Alert 0x2A06).
    public var alarmLevel: UInt8 = 2
    /// Whether the tag may sound its own alarm when the link drops. Off by default: an iTag that
    /// shrieks at every disconnect (a walk out of range, a restart of the daemon) gets thrown away;
    /// many clones ignore the setting anyway (hardware.md §5.1).
    public var linkLossAlert = false
    /// The limit on each request to the tag. Shorter than ATT's 30 s: a tag that does not answer
    /// in this time is as good as gone, and reconnecting is faster than waiting.
    public var requestTimeout: Double = 5

    public static let immediateAlertService = BluetoothUUID(0x1802)
    public static let linkLossService = BluetoothUUID(0x1803)
    public static let alertLevel = BluetoothUUID(0x2A06)
    public static let batteryService = BluetoothUUID(0x180F)
    public static let batteryLevel = BluetoothUUID(0x2A19)

    public init() {}
}

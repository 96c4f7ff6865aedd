/// How a fake peripheral misbehaves, changeable while it runs.
public struct FakePeripheralBehaviour: Sendable, Equatable {
    /// Seconds before each answer goes out (a slow tag).
    public var responseDelay: Double = 0
    /// Opcodes answered with an Error Response of this code instead of their answer.
    public var errors: [UInt8: ATTErrorCode] = [:]
    /// Requests never answered (the client's timeout must end them).
    public var silentOpcodes: Set<UInt8> = []
    /// Hang up when this many requests have arrived on the connection (before answering the last).
    public var disconnectAfterRequests: Int?
    /// Firmware that notifies presses without the CCCD written (hardware.md §5.1: RPIEasy's plugin
    /// never writes it).
    public var notifiesWithoutSubscription = false
    /// Firmware that stops answering requests once a characteristic is subscribed (a hang after
    /// the CCCD write) while it still notifies presses.
    public var silentOnceSubscribed = false
    /// The wearer presses as the button is subscribed: the press goes out before the
    /// subscription's answer, so it is on the bearer before the set-up goes on.
    public var pressedOnSubscription = false
    /// The server's receive MTU in Exchange MTU (iTags answer 23).
    public var mtu: UInt16 = 23
    /// Services whose discovery (a request starting inside them) is refused with this code, as
    /// firmware that guards a service, or answers badly for it, does.
    public var refusedServices: [BluetoothUUID: ATTErrorCode] = [:]

    public init() {}
}

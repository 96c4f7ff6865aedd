/// A characteristic descriptor (the Client Characteristic Configuration 0x2902 is the one a
/// keychain needs).
public struct GATTDescriptor: Sendable, Equatable {
    public var uuid: BluetoothUUID
    public var handle: UInt16

    public init(uuid: BluetoothUUID, handle: UInt16) {
        self.uuid = uuid
        self.handle = handle
    }
}

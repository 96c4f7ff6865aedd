/// One entry of a Find Information response: an attribute's handle and type.
public struct ATTHandleUUID: Sendable, Equatable {
    public var handle: UInt16
    public var uuid: BluetoothUUID

    public init(handle: UInt16, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }
}

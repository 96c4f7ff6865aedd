/// A primary service and the handles it spans.
public struct GATTService: Sendable, Equatable {
    public var uuid: BluetoothUUID
    public var handle: UInt16
    public var endHandle: UInt16

    public init(uuid: BluetoothUUID, handle: UInt16, endHandle: UInt16) {
        self.uuid = uuid
        self.handle = handle
        self.endHandle = endHandle
    }
}

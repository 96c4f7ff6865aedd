/// A characteristic: its declaration, value handle, properties, and the last handle that belongs
/// to it (its descriptors sit between the value handle and that one).
public struct GATTCharacteristic: Sendable, Equatable {
    public var uuid: BluetoothUUID
    public var declarationHandle: UInt16
    public var valueHandle: UInt16
    public var properties: GATTCharacteristicProperties
    public var endHandle: UInt16

    public init(uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16,
                properties: GATTCharacteristicProperties, endHandle: UInt16) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
        self.endHandle = endHandle
    }
}

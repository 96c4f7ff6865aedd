/// One attribute in a fake peripheral's database.
public struct FakeGATTAttribute: Sendable, Equatable {
    public var handle: UInt16
    public var type: BluetoothUUID
    public var value: [UInt8]
    public var readable: Bool
    public var writable: Bool

    public init(handle: UInt16, type: BluetoothUUID, value: [UInt8], readable: Bool = true, writable: Bool = false) {
        self.handle = handle
        self.type = type
        self.value = value
        self.readable = readable
        self.writable = writable
    }
}

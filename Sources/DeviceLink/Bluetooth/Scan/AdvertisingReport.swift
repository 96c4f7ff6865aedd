/// One advertisement or scan response heard by the controller.
public struct AdvertisingReport: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case connectable, directed, scannable, nonConnectable, scanResponse
        /// An extended report's event type bits.
        case extended(UInt16)

        init(legacy raw: UInt8) {
            switch raw {
            case 0x00: self = .connectable
            case 0x01: self = .directed
            case 0x02: self = .scannable
            case 0x03: self = .nonConnectable
            default: self = .scanResponse
            }
        }
    }

    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var kind: Kind
    /// dBm; nil when the controller could not measure it (127).
    public var rssi: Int?
    public var data: AdvertisingData

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, kind: Kind, rssi: Int?, data: AdvertisingData) {
        self.address = address
        self.addressType = addressType
        self.kind = kind
        self.rssi = rssi
        self.data = data
    }
}

/// A button found by a scan, as the pairing list shows it.
public struct KeychainCandidate: Sendable, Equatable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var name: String
    /// The strongest signal seen during the scan, dBm.
    public var rssi: Int?

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, name: String, rssi: Int?) {
        self.address = address
        self.addressType = addressType
        self.name = name
        self.rssi = rssi
    }

    /// Signal strength as bars (0–4) for the list: -55 dBm and up is full, -90 and below none.
    public var bars: Int {
        guard let rssi else { return 0 }
        return max(0, min(4, (rssi + 95) / 10))
    }
}

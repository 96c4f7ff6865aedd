extension BluetoothAddress {
    /// From six bytes in BlueZ's order (least significant first), as HCI events carry them.
    public init(littleEndian bytes: ArraySlice<UInt8>) {
        let b = Array(bytes)
        self.init(bytes: (b[0], b[1], b[2], b[3], b[4], b[5]))
    }
}

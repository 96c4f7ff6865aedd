/// The device's own radio: an LE scan over a raw HCI socket, connections over L2CAP.
public struct KernelKeychainRadio: KeychainRadio {
    /// "hci0"; nil takes the first adapter that is up.
    public var adapter: String?

    public init(adapter: String? = nil) { self.adapter = adapter }

    public func scan(seconds: Double, progress: @escaping @Sendable (Int) -> Void) async throws(KeychainPairingError) -> [KeychainCandidate] {
        throw .scan("scanning is not built yet")
    }

    public func connector(for address: BluetoothAddress, type: BluetoothAddressType) -> any KeychainConnector {
        L2CAPConnector(address: address, addressType: type)
    }
}

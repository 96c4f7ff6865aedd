/// The radio the pairing steps use: a scan that finds buttons, and a way to connect to one. The
/// kernel's HCI and L2CAP sockets on a device; fake peripherals in tests and `pair --simulate`.
public protocol KeychainRadio: Sendable {
    /// Scans for `seconds`; `progress` gets the number of buttons found so far, about twice a
    /// second. Returns them strongest first.
    func scan(seconds: Double, progress: @escaping @Sendable (Int) -> Void) async throws(KeychainPairingError) -> [KeychainCandidate]
    func connector(for address: BluetoothAddress, type: BluetoothAddressType) -> any KeychainConnector
}

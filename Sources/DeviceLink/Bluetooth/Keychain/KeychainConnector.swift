/// Opens the ATT link to one keychain: an L2CAP LE socket on a device (`L2CAPConnector`), a fake
/// peripheral's socket pair in tests and the demo (`FakePeripheralConnector`). Everything after
/// the socket is the same code.
public protocol KeychainConnector: Sendable {
    /// For status and logs.
    var summary: String { get }
    func connect(timeout: Double) async throws(ATTError) -> ATTSocket
}

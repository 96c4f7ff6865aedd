import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Connects to a fake peripheral through a socket pair, with the failures a radio has: a tag out
/// of range (connects time out) or slow to answer.
public final class FakePeripheralConnector: KeychainConnector, Sendable {
    public let peripheral: FakeGATTPeripheral
    private let reachable: Mutex<Bool>

    public init(_ peripheral: FakeGATTPeripheral) {
        self.peripheral = peripheral
        reachable = Mutex(true)
    }

    public var summary: String { "\(peripheral.name) \(peripheral.address) (simulated)" }

    /// A tag out of range: connects fail until it is back.
    public var inRange: Bool {
        get { reachable.withLock { $0 } }
        set { reachable.withLock { $0 = newValue } }
    }

    public func connect(timeout: Double) async throws(ATTError) -> ATTSocket {
        guard inRange else {
            // A real connect waits out its timeout when nothing answers; a short wait keeps the
            // simulation honest without slowing tests.
            try? await Task.sleep(for: .milliseconds(Int(min(timeout, 0.05) * 1000)))
            throw .system(errno: ETIMEDOUT, operation: "connect to \(peripheral.address)")
        }
        let (ours, theirs) = try ATTSocket.pair()
        peripheral.accept(theirs)
        return ours
    }
}

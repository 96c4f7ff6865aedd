#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A radio with fake peripherals in range, for `pair --simulate`, the simulated keychain and
/// tests: each with an address, a name and a signal strength; those out of range are not found
/// and do not connect. `pressesWhenBeeping` stands in for the person who presses the beeping
/// keychain to confirm it.
public final class SimulatedKeychainRadio: KeychainRadio, Sendable {
    public struct Tag: Sendable {
        public let peripheral: FakeGATTPeripheral
        public let connector: FakePeripheralConnector
        public var rssi: Int
        /// Listed by a scan (a tag connected elsewhere stops advertising).
        public var advertising = true
    }

    private let tags: Mutex<[Tag]>
    public let pressesWhenBeeping: Bool
    /// How long a scan really takes, at most (scans of the simulation need not take as long as
    /// the person asked).
    public let scanTime: Double

    public init(_ peripherals: [(FakeGATTPeripheral, rssi: Int)], pressesWhenBeeping: Bool = true, scanTime: Double = 0.3) {
        tags = Mutex(peripherals.map { Tag(peripheral: $0.0, connector: FakePeripheralConnector($0.0), rssi: $0.rssi) })
        self.pressesWhenBeeping = pressesWhenBeeping
        self.scanTime = scanTime
    }

    /// Two iTags, one near and one far: the demo's neighbourhood.
    public static func demo(pressesWhenBeeping: Bool = true) throws(ATTError) -> SimulatedKeychainRadio {
        let near = try FakeGATTPeripheral(address: BluetoothAddress("FF:FF:10:20:30:40")!, name: "iTAG", database: .iTag(battery: 96))
        let far = try FakeGATTPeripheral(address: BluetoothAddress("FF:FF:C0:FF:EE:07")!, name: "iTAG", database: .iTag(battery: 41))
        return SimulatedKeychainRadio([(near, -58), (far, -83)], pressesWhenBeeping: pressesWhenBeeping)
    }

    public var all: [Tag] { tags.withLock { $0 } }

    public func tag(_ address: BluetoothAddress) -> Tag? { all.first { $0.peripheral.address == address } }

    public func setAdvertising(_ address: BluetoothAddress, _ on: Bool) {
        tags.withLock { tags in
            for index in tags.indices where tags[index].peripheral.address == address { tags[index].advertising = on }
        }
    }

    public func scan(seconds: Double, progress: @escaping @Sendable (Int) -> Void) async throws(KeychainPairingError) -> [KeychainCandidate] {
        let found = all.filter { $0.advertising && $0.connector.inRange }
        let steps = max(1, Int(min(seconds, scanTime) / 0.1))
        for step in 1...steps {
            try? await Task.sleep(for: .milliseconds(100))
            progress(found.count * step / steps)
        }
        return found.sorted { $0.rssi > $1.rssi }.map {
            KeychainCandidate(address: $0.peripheral.address, addressType: .public, name: $0.peripheral.name, rssi: $0.rssi)
        }
    }

    public func connector(for address: BluetoothAddress, type: BluetoothAddressType) -> any KeychainConnector {
        guard let tag = tag(address) else { return AbsentConnector(address: address) }
        guard pressesWhenBeeping else { return tag.connector }
        return PressingConnector(tag.connector)
    }

    /// Connects, then presses the button once the tag is told to beep, as the person would.
    struct PressingConnector: KeychainConnector {
        let inner: FakePeripheralConnector
        init(_ inner: FakePeripheralConnector) { self.inner = inner }
        var summary: String { inner.summary }

        func connect(timeout: Double) async throws(ATTError) -> ATTSocket {
            let socket = try await inner.connect(timeout: timeout)
            let peripheral = inner.peripheral
            let before = peripheral.record.alertLevels.count
            Task {
                for _ in 0..<200 {
                    try? await Task.sleep(for: .milliseconds(25))
                    if peripheral.record.alertLevels.dropFirst(before).contains(where: { $0 > 0 }) {
                        try? await Task.sleep(for: .milliseconds(300))
                        peripheral.press()
                        return
                    }
                }
            }
            return socket
        }
    }

    struct AbsentConnector: KeychainConnector {
        let address: BluetoothAddress
        var summary: String { "\(address) (simulated, absent)" }
        func connect(timeout: Double) async throws(ATTError) -> ATTSocket {
            throw .system(errno: ETIMEDOUT, operation: "connect to \(address)")
        }
    }
}

import CBluetooth

/// A Bluetooth device address (`AA:BB:CC:DD:EE:FF`). BlueZ stores the six bytes little-endian,
/// the reverse of the printed form; libbluetooth's str2ba/ba2str do the conversion.
public struct BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes in BlueZ order (least significant first).
    public var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    public init(bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) { self.bytes = bytes }

    public init?(_ text: String) {
        // str2ba accepts malformed text silently (it reads what it can), so check the shape first.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
            return nil
        }
        var address = bdaddr_t()
        guard str2ba(text, &address) == 0 else { return nil }
        bytes = address.b
    }

    public var description: String {
        var address = bdaddr_t(b: bytes)
        var text = [CChar](repeating: 0, count: 18)
        _ = ba2str(&address, &text)
        return String(decoding: text.prefix(17).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func == (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
        lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

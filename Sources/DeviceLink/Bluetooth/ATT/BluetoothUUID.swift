/// An attribute type: a 16-bit UUID assigned by the Bluetooth SIG or a full 128-bit one. A 128-bit
/// UUID built on the Bluetooth base UUID is the same type as its 16-bit alias, so both compare equal.
public struct BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes, most significant first (the printed order).
    public let bytes: [UInt8]

    /// 0000xxxx-0000-1000-8000-00805F9B34FB.
    private static let base: [UInt8] = [0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

    private init(bytes: [UInt8]) { self.bytes = bytes }

    public init(_ short: UInt16) {
        var bytes = Self.base
        bytes[2] = UInt8(short >> 8)
        bytes[3] = UInt8(short & 0xFF)
        self.init(bytes: bytes)
    }

    /// From the little-endian bytes an ATT PDU carries: 2 or 16 of them.
    public init?(littleEndian raw: some Collection<UInt8>) {
        switch raw.count {
        case 2:
            let b = Array(raw)
            self.init(UInt16(b[0]) | UInt16(b[1]) << 8)
        case 16: self.init(bytes: raw.reversed())
        default: return nil
        }
    }

    /// "FFE0", "0xFFE0", "2a19" or "0000ffe0-0000-1000-8000-00805f9b34fb".
    public init?(_ text: String) {
        var hex = text.lowercased()
        if hex.hasPrefix("0x") { hex.removeFirst(2) }
        if hex.count == 4, let short = UInt16(hex, radix: 16) {
            self.init(short)
            return
        }
        let digits = hex.filter { $0 != "-" }
        guard digits.count == 32, hex.count == 32 || hex.count == 36 else { return nil }
        var out: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        self.init(bytes: out)
    }

    /// The 16-bit alias when this UUID sits on the base UUID.
    public var short: UInt16? {
        guard bytes[0] == 0, bytes[1] == 0, Array(bytes[4...]) == Array(Self.base[4...]) else { return nil }
        return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// The shortest form an ATT PDU may carry, little-endian.
    public var littleEndian: [UInt8] {
        if let short { return [UInt8(short & 0xFF), UInt8(short >> 8)] }
        return bytes.reversed()
    }

    public var description: String {
        if let short { return String(format4: short) }
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    public static let primaryService = BluetoothUUID(0x2800)
    public static let characteristic = BluetoothUUID(0x2803)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
}

private extension String {
    init(format4 value: UInt16) {
        self = String(value, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

/// The AD structures of an advertisement or scan response (Core spec Supplement Part A): each a
/// length, a type and data. Only what choosing a keychain needs is kept.
public struct AdvertisingData: Sendable, Equatable {
    public var flags: UInt8?
    /// 16- and 128-bit service UUIDs, complete or incomplete lists together.
    public var services: [BluetoothUUID] = []
    /// The complete local name, or the shortened one when that is all there is; trailing spaces
    /// and NULs removed (iTags pad theirs to 16 characters).
    public var name: String?
    public var txPower: Int8?
    /// Company identifier and the rest of the manufacturer data.
    public var manufacturer: (company: UInt16, data: [UInt8])?

    public init() {}

    public static func == (lhs: AdvertisingData, rhs: AdvertisingData) -> Bool {
        lhs.flags == rhs.flags && lhs.services == rhs.services && lhs.name == rhs.name && lhs.txPower == rhs.txPower
            && lhs.manufacturer?.company == rhs.manufacturer?.company && lhs.manufacturer?.data == rhs.manufacturer?.data
    }

    /// Parses `bytes`; `base` is their offset in the enclosing packet, for error messages.
    public init(parsing bytes: ArraySlice<UInt8>, base: Int = 0) throws(AdvertisingParseError) {
        var index = bytes.startIndex
        var complete = false
        while index < bytes.endIndex {
            let length = Int(bytes[index])
            // A zero length ends the significant part; the rest is padding.
            if length == 0 { break }
            let offset = base + index - bytes.startIndex
            guard index + 1 + length <= bytes.endIndex else {
                throw AdvertisingParseError(offset: offset, "structure of \(length) bytes runs past the end (\(bytes.endIndex - index - 1) left)")
            }
            let type = bytes[index + 1]
            let data = bytes[(index + 2)..<(index + 1 + length)]
            switch type {
            case 0x01: flags = data.first
            case 0x02, 0x03:
                guard data.count % 2 == 0 else { throw AdvertisingParseError(offset: offset, "16-bit UUID list of \(data.count) bytes") }
                for n in stride(from: data.startIndex, to: data.endIndex, by: 2) {
                    if let uuid = BluetoothUUID(littleEndian: data[n..<n + 2]) { services.append(uuid) }
                }
            case 0x06, 0x07:
                guard data.count % 16 == 0 else { throw AdvertisingParseError(offset: offset, "128-bit UUID list of \(data.count) bytes") }
                for n in stride(from: data.startIndex, to: data.endIndex, by: 16) {
                    if let uuid = BluetoothUUID(littleEndian: data[n..<n + 16]) { services.append(uuid) }
                }
            case 0x08, 0x09:
                guard !complete else { break }
                let text = String(decoding: data, as: UTF8.self)
                let trimmed = String(text.reversed().drop { $0 == " " || $0 == "\0" }.reversed())
                name = trimmed.isEmpty ? nil : trimmed
                complete = type == 0x09
            case 0x0A:
                guard let first = data.first else { throw AdvertisingParseError(offset: offset, "empty TX power") }
                txPower = Int8(bitPattern: first)
            case 0xFF:
                guard data.count >= 2 else { throw AdvertisingParseError(offset: offset, "manufacturer data without a company id") }
                manufacturer = (UInt16(data[data.startIndex]) | UInt16(data[data.startIndex + 1]) << 8, Array(data.dropFirst(2)))
            default: break
            }
            index += 1 + length
        }
    }
}

/// Reads LE advertising reports from HCI event packets as a raw HCI socket delivers them:
/// packet type 0x04, event 0x3E (LE Meta), length, then subevent 0x02 (legacy reports) or 0x0D
/// (extended reports). Several reports in one event are read in sequence, each whole before the
/// next: the layout Linux controllers send and BlueZ's hcitool reads (it stops at the first).
/// Every length is checked first; a short or inconsistent packet is an error naming the byte.
public enum AdvertisingReportParser {
    public static func parse(_ packet: [UInt8]) throws(AdvertisingParseError) -> [AdvertisingReport] {
        guard packet.count >= 3 else { throw AdvertisingParseError(offset: packet.count, "packet shorter than its 3-byte header") }
        guard packet[0] == 0x04, packet[1] == 0x3E else { return [] }
        let length = Int(packet[2])
        guard packet.count == 3 + length else {
            throw AdvertisingParseError(offset: 2, "parameter length \(length) but \(packet.count - 3) bytes follow")
        }
        guard length >= 2 else { throw AdvertisingParseError(offset: 3, "LE meta event without subevent and report count") }
        let count = Int(packet[4])
        var reader = Reader(bytes: packet, index: 5)
        let extended: Bool
        switch packet[3] {
        case 0x02: extended = false
        case 0x0D: extended = true
        default: return []
        }
        var reports: [AdvertisingReport] = []
        for _ in 0..<count { reports.append(extended ? try reader.extendedReport() : try reader.legacyReport()) }
        guard reader.index == packet.count else {
            throw AdvertisingParseError(offset: reader.index, "\(packet.count - reader.index) bytes after the last report")
        }
        return reports
    }

    struct Reader {
        let bytes: [UInt8]
        var index: Int

        mutating func byte(_ field: String) throws(AdvertisingParseError) -> UInt8 {
            guard index < bytes.count else { throw AdvertisingParseError(offset: index, "\(field) missing") }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func address() throws(AdvertisingParseError) -> BluetoothAddress {
            guard index + 6 <= bytes.count else { throw AdvertisingParseError(offset: index, "address needs 6 bytes, \(bytes.count - index) left") }
            defer { index += 6 }
            return BluetoothAddress(littleEndian: bytes[index..<index + 6])
        }

        mutating func data() throws(AdvertisingParseError) -> AdvertisingData {
            let length = Int(try byte("data length"))
            guard index + length <= bytes.count else {
                throw AdvertisingParseError(offset: index - 1, "data length \(length) but \(bytes.count - index) bytes left")
            }
            defer { index += length }
            return try AdvertisingData(parsing: bytes[index..<index + length], base: index)
        }

        static func addressType(_ raw: UInt8) -> BluetoothAddressType { raw & 0x01 == 0 ? .public : .random }

        static func rssi(_ raw: UInt8) -> Int? { raw == 127 ? nil : Int(Int8(bitPattern: raw)) }

        mutating func legacyReport() throws(AdvertisingParseError) -> AdvertisingReport {
            let kind = AdvertisingReport.Kind(legacy: try byte("event type"))
            let type = Self.addressType(try byte("address type"))
            let address = try address()
            let data = try data()
            let rssi = Self.rssi(try byte("RSSI"))
            return AdvertisingReport(address: address, addressType: type, kind: kind, rssi: rssi, data: data)
        }

        mutating func extendedReport() throws(AdvertisingParseError) -> AdvertisingReport {
            let kind = UInt16(try byte("event type")) | UInt16(try byte("event type")) << 8
            let type = Self.addressType(try byte("address type"))
            let address = try address()
            // Primary PHY, secondary PHY, SID, TX power.
            for field in ["primary PHY", "secondary PHY", "SID", "TX power"] { _ = try byte(field) }
            let rssi = Self.rssi(try byte("RSSI"))
            // Periodic advertising interval (2), direct address type and address (7).
            for _ in 0..<9 { _ = try byte("interval or direct address") }
            let data = try data()
            return AdvertisingReport(address: address, addressType: type, kind: .extended(kind), rssi: rssi, data: data)
        }
    }
}

import Testing
@testable import DeviceLink

/// Advertising reports as a raw HCI socket delivers them, built byte by byte the way btmon shows
/// an iTag's and a phone's advertisements.
@Suite struct AdvertisingReportParserTests {
    /// Wraps reports in an HCI event packet: 0x04, 0x3E, length, subevent, count.
    static func event(_ subevent: UInt8, _ reports: [[UInt8]]) -> [UInt8] {
        let body = [subevent, UInt8(reports.count)] + reports.flatMap { $0 }
        return [0x04, 0x3E, UInt8(body.count)] + body
    }

    /// An iTag at FF:FF:10:20:30:40 (public), connectable: flags 0x06, complete 16-bit UUIDs 0xFFE0
    /// and 0x1802, its name padded with spaces to 16, RSSI -58.
    static let iTagData: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x03, 0xE0, 0xFF, 0x02, 0x18, 0x11, 0x09] + Array("iTAG            ".utf8)
    static let iTag: [UInt8] = [0x00, 0x00, 0x40, 0x30, 0x20, 0x10, 0xFF, 0xFF, UInt8(iTagData.count)] + iTagData + [UInt8(bitPattern: -58)]
    /// Its scan response: only a shortened name, RSSI -60.
    static let iTagResponse: [UInt8] = [0x04, 0x00, 0x40, 0x30, 0x20, 0x10, 0xFF, 0xFF, 0x06, 0x05, 0x08] + Array("iTAG".utf8) + [UInt8(bitPattern: -60)]
    /// A phone: random address, Apple manufacturer data (0x004C), TX power, RSSI -81.
    static let phone: [UInt8] = [0x00, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x0D,
                                 0x02, 0x01, 0x1A, 0x02, 0x0A, 0x0C, 0x06, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, UInt8(bitPattern: -81)]
    /// An extended report of a connectable button with a 128-bit service, RSSI unknown (127).
    static let extended: [UInt8] = [0x13, 0x00, 0x01, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xC0, 0x01, 0x00, 0xFF, 0x7F, 0x7F, 0x00, 0x00,
                                    0x00, 0, 0, 0, 0, 0, 0, 0x12, 0x11, 0x07]
        + Array(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")!.bytes.reversed())

    @Test func anITagAdvertisementIsReadWhole() throws {
        let reports = try AdvertisingReportParser.parse(Self.event(0x02, [Self.iTag]))
        let report = try #require(reports.first)
        #expect(reports.count == 1)
        #expect(report.address.description == "FF:FF:10:20:30:40")
        #expect(report.addressType == .public)
        #expect(report.kind == .connectable)
        #expect(report.rssi == -58)
        #expect(report.data.flags == 0x06)
        #expect(report.data.services == [BluetoothUUID(0xFFE0), BluetoothUUID(0x1802)])
        #expect(report.data.name == "iTAG", "the padding is trimmed")
    }

    @Test func severalReportsInOneEventAreReadInSequence() throws {
        let reports = try AdvertisingReportParser.parse(Self.event(0x02, [Self.iTagResponse, Self.phone]))
        #expect(reports.map(\.kind) == [.scanResponse, .connectable])
        #expect(reports[1].addressType == .random)
        #expect(reports[1].data.manufacturer?.company == 0x004C)
        #expect(reports[1].data.txPower == 12)
        #expect(reports[1].rssi == -81)
    }

    @Test func anExtendedReportIsRead() throws {
        let report = try #require(try AdvertisingReportParser.parse(Self.event(0x0D, [Self.extended])).first)
        #expect(report.kind == .extended(0x13))
        #expect(report.addressType == .random)
        #expect(report.rssi == nil)
        #expect(report.data.services == [BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")!])
    }

    @Test func otherEventsAreNotReports() throws {
        #expect(try AdvertisingReportParser.parse([0x04, 0x0E, 0x04, 0x01, 0x0B, 0x20, 0x00]).isEmpty)
        #expect(try AdvertisingReportParser.parse([0x04, 0x3E, 0x02, 0x01, 0x00]).isEmpty, "a connection complete is not a report")
    }

    @Test func everyTruncationIsAnErrorNeverATrap() {
        for packet in [Self.event(0x02, [Self.iTag]), Self.event(0x02, [Self.iTagResponse, Self.phone]), Self.event(0x0D, [Self.extended])] {
            for length in 0..<packet.count {
                var cut = Array(packet.prefix(length))
                if cut.count >= 3 { cut[2] = UInt8(cut.count - 3) }  // a consistent header over a cut body
                #expect(throws: AdvertisingParseError.self, "\(length) of \(packet.count) bytes") { try AdvertisingReportParser.parse(cut) }
            }
        }
    }

    @Test func inconsistentLengthsNameTheByte() {
        var packet = Self.event(0x02, [Self.iTag])
        packet[2] += 1
        #expect(throws: AdvertisingParseError(offset: 2, "parameter length \(packet[2]) but \(packet.count - 3) bytes follow")) {
            try AdvertisingReportParser.parse(packet)
        }
        // An AD structure claiming more than the data holds.
        let bad: [UInt8] = [0x00, 0x00, 1, 2, 3, 4, 5, 6, 0x03, 0x05, 0x09, 0x41, 0xC0]
        #expect(throws: AdvertisingParseError.self) { try AdvertisingReportParser.parse(Self.event(0x02, [bad])) }
    }

    @Test func randomPacketsNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        var parsed = 0
        for _ in 0..<20_000 {
            var packet = (0..<Int.random(in: 0...60, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if packet.count >= 5 {
                packet[0] = 0x04
                packet[1] = 0x3E
                packet[2] = UInt8(packet.count - 3)
                packet[3] = Bool.random(using: &generator) ? 0x02 : 0x0D
                packet[4] = UInt8.random(in: 0...3, using: &generator)
            }
            if (try? AdvertisingReportParser.parse(packet)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }
}

import Testing
@testable import DeviceLink

@Suite struct ScanResultsTests {
    @Test func reportsOfOneAddressMergeAndKeychainsComeStrongestFirst() throws {
        var results = ScanResults()
        for packet in [AdvertisingReportParserTests.event(0x02, [AdvertisingReportParserTests.iTag]),
                       AdvertisingReportParserTests.event(0x02, [AdvertisingReportParserTests.iTagResponse, AdvertisingReportParserTests.phone])] {
            for report in try AdvertisingReportParser.parse(packet) { results.add(report) }
        }
        #expect(results.devices.count == 2, "the iTag's advertisement and scan response are one device")
        let tag = try #require(results.devices[BluetoothAddress("FF:FF:10:20:30:40")!])
        #expect(tag.reports == 2)
        #expect(tag.strongestRSSI == -58)
        #expect(tag.latestRSSI == -60)
        #expect(tag.connectable)
        #expect(results.keychains.map(\.address.description) == ["FF:FF:10:20:30:40"], "the phone is not a keychain")
        #expect(results.keychains.first?.bars == 3)
    }

    @Test func aConfiguredButtonServiceCounts() throws {
        var results = ScanResults()
        for report in try AdvertisingReportParser.parse(AdvertisingReportParserTests.event(0x0D, [AdvertisingReportParserTests.extended])) {
            results.add(report)
        }
        #expect(results.keychains.isEmpty)
        results.keychainServices.insert(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e")!)
        #expect(results.keychains.count == 1)
    }
}

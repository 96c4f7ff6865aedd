import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct BluetoothAddressTests {
    @Test func libbluetoothStoresAddressesLeastSignificantByteFirst() throws {
        let address = try #require(BluetoothAddress("FF:EE:DD:03:02:01"))
        #expect(address.bytes.0 == 0x01)
        #expect(address.bytes.5 == 0xFF)
        #expect(address.description == "FF:EE:DD:03:02:01")
    }

    @Test(arguments: ["", "FF:EE:DD:03:02", "FF:EE:DD:03:02:01:00", "GG:EE:DD:03:02:01", "FFEEDD030201"])
    func malformedAddressesAreRejected(_ text: String) {
        #expect(BluetoothAddress(text) == nil)
    }

    /// This machine's kernel has no Bluetooth; the library must say why rather than crash.
    @Test func noAdapterIsReportedWithAnErrno() {
        switch HCIAdapter.firstAvailable() {
        case .success(let id):
            #expect(id >= 0)
        case .failure(let error):
            #expect([ENODEV, EAFNOSUPPORT].contains(error.errno), "\(error)")
        }
    }
}

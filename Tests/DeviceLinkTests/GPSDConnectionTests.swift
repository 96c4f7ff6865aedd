import Testing
@testable import DeviceLink

@Suite struct GPSDConnectionTests {
    @Test func builtAgainstALibgpsAPIWeSupport() {
        #expect(GPSDConnection.apiVersion.major >= 9)
    }

    /// Port 1 on loopback never has gpsd; libgps must report its own NL_NOCONNECT code, not crash.
    @Test func openingWithNothingListeningGivesGpsdsErrorCode() {
        #expect(throws: GPSDError(code: GPSDError.noConnectCode, host: "127.0.0.1", port: "1")) {
            _ = try GPSDConnection(host: "127.0.0.1", port: "1")
        }
    }

    @Test func errorTextComesFromLibgps() {
        let error = GPSDError(code: GPSDError.noConnectCode, host: "127.0.0.1", port: "1")
        #expect(error.description.contains("can't connect"))
    }
}

import Testing
@testable import DeviceLink

/// The GNSS service reports a change of the client's headline as an event: what runs on by
/// itself must not change it (a receiver silent for an hour would be 3600 warnings).
@Suite struct GPSDClientStateTests {
    @Test func theHeadlineIgnoresCountsThatRunOnByThemselves() {
        #expect(GPSDClientState.receiverSilent(seconds: 5).headline == GPSDClientState.receiverSilent(seconds: 6).headline)
        let refused = GPSDClientState.disconnected(reason: "connection refused", retryIn: 2)
        #expect(refused.headline == GPSDClientState.disconnected(reason: "connection refused", retryIn: 1.5).headline)
        #expect(refused.headline != GPSDClientState.disconnected(reason: "gpsd closed the connection", retryIn: 2).headline)
        let headlines = [GPSDClientState.stopped, .connecting, .connected, .receiverSilent(seconds: 5), refused].map(\.headline)
        #expect(Set(headlines).count == headlines.count, "\(headlines)")
    }
}

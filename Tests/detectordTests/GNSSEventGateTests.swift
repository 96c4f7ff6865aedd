import Testing
@testable import detectord

/// The gpsd client's states as events: changes of kind, and a quiet receiver's reconnections not.
@Suite struct GNSSEventGateTests {
    /// Each (headline, reports so far) in turn; the headlines that would be published.
    static func published(_ states: [(String, Int)]) -> [String] {
        var gate = GNSSEventGate()
        return states.filter { gate.shouldPublish(headline: $0.0, reports: $0.1) }.map(\.0)
    }

    @Test func aChangeOfKindIsNewsOnce() {
        #expect(Self.published([("connecting", 0), ("connected", 0), ("connected", 5), ("disconnected (gpsd closed the connection)", 9)])
            == ["connecting", "connected", "disconnected (gpsd closed the connection)"])
    }

    /// A receiver unplugged: gpsd's reconnections after each minute of silence tell nothing
    /// until the receiver reports again; gpsd going away is still news.
    @Test func aQuietReceiversReconnectionsAreNotNews() {
        let cycle = [("receiver silent", 7), ("disconnected (no report for 60 s)", 7), ("connected", 7)]
        #expect(Self.published([("connected", 7)] + cycle + cycle + cycle) == ["connected", "receiver silent"])
        #expect(Self.published([("connected", 7)] + cycle + [("connected", 8)]) == ["connected", "receiver silent", "connected"])
        #expect(Self.published([("connected", 7)] + cycle + [("disconnected (Connection refused)", 7), ("connected", 7)])
            == ["connected", "receiver silent", "disconnected (Connection refused)", "connected"], "gpsd gone, then back")
    }
}

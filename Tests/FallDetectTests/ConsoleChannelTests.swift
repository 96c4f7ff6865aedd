import Foundation
import Synchronization
import Testing
@testable import FallDetect

@Suite struct ConsoleChannelTests {
    static func message(_ key: String) -> OutgoingMessage {
        let payload = EmergencyPayload(
            kind: .allClear, text: "All clear", trigger: .manual, isTest: false, timestamp: Date(timeIntervalSince1970: 0), sequence: 1,
            deviceID: "d", personID: "p")
        return OutgoingMessage(idempotencyKey: key, kind: .allClear, recipient: "Anna", text: "All clear", payload: payload)
    }

    @Test func recordsAndPrintsEachLine() async {
        let printed = Mutex<[String]>([])
        let channel = ConsoleChannel { line in printed.withLock { $0.append(line) } }
        #expect(channel.name == "console")
        #expect(await channel.deliver(Self.message("k1")) == .delivered(reference: "console line 1"))
        #expect(await channel.deliver(Self.message("k2")) == .delivered(reference: "console line 2"))
        #expect(channel.lines == ["[all_clear] to Anna (key k1): All clear", "[all_clear] to Anna (key k2): All clear"])
        #expect(printed.withLock { $0 } == channel.lines)
    }

    @Test func anUnreachableConsoleRetriesLikeARealChannel() async {
        let channel = ConsoleChannel(retryDelay: 12) { _ in }
        channel.isReachable = false
        #expect(await channel.deliver(Self.message("k1")) == .retryAfter(seconds: 12, reason: "the console channel is marked unreachable"))
        #expect(channel.lines.isEmpty)
        channel.isReachable = true
        #expect(await channel.deliver(Self.message("k1")).isDelivered)
    }

    /// The protocol is all a caller needs: channels are used as `any AlertChannel`.
    @Test func worksThroughTheProtocol() async {
        let channels: [any AlertChannel] = [ConsoleChannel { _ in }, ConsoleChannel(name: "log") { _ in }]
        var outcomes: [DeliveryOutcome] = []
        for channel in channels { outcomes.append(await channel.deliver(Self.message("k"))) }
        #expect(outcomes.allSatisfy { $0.isDelivered })
        #expect(channels.map(\.name) == ["console", "log"])
    }
}

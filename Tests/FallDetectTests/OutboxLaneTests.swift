import Testing
@testable import FallDetect

@Suite struct OutboxLaneTests {
    /// Each channel that reaches someone gets a lane; the console and every other name, which no
    /// channel can send, fall in the last one, so that those messages are still abandoned and told.
    @Test func everyChannelNameFallsInExactlyOneLane() {
        let lanes = OutboxLane.lanes(for: ["sms", "console", "webhook"])
        #expect(lanes == [.channel("sms"), .channel("webhook"), .allExcept(["sms", "webhook"])])
        for name in ["console", "sms", "webhook", "fax", ""] {
            #expect(lanes.filter { $0.contains(name) }.count == 1, "\(name)")
        }
        #expect(OutboxLane.all.contains("fax") && OutboxLane.all.contains("sms"))
        #expect(OutboxLane.lanes(for: ["console"]) == [.allExcept([])])
    }
}

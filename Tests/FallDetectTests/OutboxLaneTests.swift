import Testing
@testable import FallDetect

@Suite struct OutboxLaneTests {
    /// Each configured channel and the local log's console get a lane; every other name, which no
    /// channel can send, falls in the last one, so that its messages are still abandoned and told.
    @Test func everyChannelNameFallsInExactlyOneLane() {
        let lanes = OutboxLane.lanes(for: ["sms", "webhook"])
        #expect(lanes == [.channel("console"), .channel("sms"), .channel("webhook"), .allExcept(["console", "sms", "webhook"])])
        for name in ["console", "sms", "webhook", "fax", ""] {
            #expect(lanes.filter { $0.contains(name) }.count == 1, "\(name)")
        }
        #expect(OutboxLane.all.contains("fax") && OutboxLane.all.contains("sms"))
        #expect(OutboxLane.lanes(for: ["console"]) == [.channel("console"), .allExcept(["console"])])
    }
}

import Logging
import Testing
@testable import detectord

@Suite struct EventHubTests {
    @Test func listenersSeeNumbersMaskedNoMessageTextAndNoLoginToken() {
        let hub = EventHub(logger: Logger(label: "test"))
        hub.publish(DaemonEvent("login_token", at: 0, [("token", .string("s3cret-token"))]))
        hub.publish(DaemonEvent("message", at: 1, [
            ("to", .string("+351913333333")), ("key", .string("msg-3-sms-+351913333333-5e0c91a7")),
            ("text", .string("ALERT! Ana Pereira ... https://www.openstreetmap.org/?mlat=47.39515")), ("attempt", .int(1)),
        ]))
        let recent = hub.recentEvents
        #expect(recent.map(\.type) == ["message"], "the login token stays in the log")
        let line = recent.first?.json ?? ""
        #expect(!line.contains("913333333") && line.contains("+351••••••333"), "\(line)")
        #expect(!line.contains("Ana Pereira") && !line.contains("\"text\""), "\(line)")
        #expect(line.contains("\"attempt\":1"))
    }
}

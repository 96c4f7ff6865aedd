import Logging
import Synchronization
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

    /// The token is made once and shown only in the log: a `[log] level` above notice must not
    /// hide it, or nobody could log in from another machine until `ctl token`.
    @Test func theLoginTokenIsLoggedWhateverTheLevel() {
        let lines = CapturedLines()
        var logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .error
        let hub = EventHub(logger: logger)
        hub.publish(DaemonEvent("login_token", at: 0, severity: .notice, [("token", .string("s3cret-token"))]))
        hub.publish(DaemonEvent("keychain", at: 1, severity: .notice, [("state", .string("connected"))]))
        let logged = lines.all.withLock { $0 }
        #expect(logged.count == 1 && logged[0].contains("s3cret-token"), "\(logged)")
        #expect(logger.logLevel == .error, "the hub's logger keeps its level")
    }
}

private final class CapturedLines: Sendable {
    let all = Mutex<[String]>([])
}

/// Keeps each record's message.
private struct CapturingLogHandler: LogHandler {
    let lines: CapturedLines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.all.withLock { $0.append(event.message.description) } }
}

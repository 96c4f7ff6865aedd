import FallDetect
import Foundation
import TestSupport
import Testing

import DeviceLink

/// A drill (`DrillRunner`, in FallDetect) whose contact is reached through the webhook channel,
/// against a real HTTP server on 127.0.0.1.
@Suite struct WebhookDrillTests {
    @Test func contactsOnOtherChannelsGoThroughTheConfiguredChannel() async throws {
        let server = try LoopbackHTTPServer(replies: [.init(status: 200)])
        defer { server.stop() }
        let dir = NSTemporaryDirectory() + "dl-drill-webhook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = DrillRunner.Options(databasePath: dir + "/drill.sqlite")
        options.channels["webhook"] = try WebhookChannel(url: server.url, secret: Array("a-secret-of-24-bytes-ok".utf8), seed: 1)
        var lines: [String] = []
        let runner = try DrillRunner(options: options) { lines.append($0) }
        try await runner.run(DrillScript(text: """
            {"at": 0, "do": "position", "lat": 48.1, "lon": 11.5, "accuracy_m": 6}
            {"at": 0, "do": "start", "name": "Ada Lovelace", "phone": "+447700900123", "country": "GB"}
            {"at": 0, "do": "contact", "name": "Hook", "phone": "+447700900456", "channel": "webhook"}
            {"at": 0, "do": "contact", "name": "Phone", "phone": "+447700900789", "channel": "sms"}
            {"at": 1, "do": "detect", "kind": "fall"}
            {"at": 125, "do": "advance"}
            """, path: "inline"))
        let webhookLine = try #require(lines.first { $0.contains(#""channel":"webhook""#) })
        #expect(webhookLine.contains(#""delivered":true"#))
        #expect(lines.contains { $0.contains("EMERGENCY_SENT") }, "the webhook's 2xx confirms delivery")
        #expect(lines.contains { $0.contains("no sms channel is configured; not delivered") })

        let request = try #require(server.requests.first)
        #expect(request.headers["idempotency-key"]?.hasPrefix("msg-1-webhook-") == true || request.headers["Idempotency-Key"]?.hasPrefix("msg-1-webhook-") == true)
        let payload = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        #expect(payload?["message_kind"] as? String == "alert")
        #expect(payload?["trigger"] as? String == "automatic_fall")
        #expect(payload?["sequence"] as? Int == 1)
        #expect((payload?["position"] as? [String: Any])?["latitude"] as? Double == 48.1)
    }
}

import FallDetect
import Foundation
import TestSupport
import Testing

@testable import DeviceLink

/// The webhook against a real HTTP server on 127.0.0.1 (`LoopbackHTTPServer`); no outside network.
@Suite struct WebhookChannelTests {
    static let secret = Array("0123456789abcdef0123456789abcdef".utf8)
    static let signedAt = Date(timeIntervalSince1970: 1_767_268_800)

    static let payload = ExamplePayload.full

    static func message(attempt: Int = 1) -> OutgoingMessage {
        OutgoingMessage(
            idempotencyKey: "incident-7/alert/+33612345678", kind: .alert, recipient: "+33612345678", text: "ALERT! Jane Doe…",
            payload: payload, attempt: attempt)
    }

    static func channel(_ url: URL, seed: UInt64 = 5, timeout: Double = 5) throws -> WebhookChannel {
        try WebhookChannel(url: url, secret: secret, timeout: timeout, retry: RetryPolicy(base: 30, maximum: 300, minimum: 1), seed: seed, clock: { signedAt })
    }

    func withServer(_ replies: [LoopbackHTTPServer.Reply], _ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let server = try LoopbackHTTPServer(replies: replies)
        defer { server.stop() }
        try await body(server)
    }

    @Test func a2xxIsDeliveredAndTheRequestIsSignedAsDocumented() async throws {
        try await withServer([.init(status: 202)]) { server in
            let outcome = try await Self.channel(server.url).deliver(Self.message())
            #expect(outcome == .delivered(reference: "HTTP 202"))
            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.path == "/hooks/alert")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["idempotency-key"] == "incident-7/alert/+33612345678")
            #expect(request.headers["x-detectord-timestamp"] == "1767268800")
            // What a receiver does: recompute over "<timestamp>.<body>" with the shared secret.
            let expected = HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array("1767268800.".utf8) + Array(request.body), key: Self.secret))
            #expect(request.headers["x-detectord-signature"] == "sha256=" + expected)
            #expect(try EmergencyPayload.decode(request.body) == Self.message().payload)
            // A body changed on the way no longer matches.
            var tampered = Array(request.body)
            tampered[10] ^= 1
            #expect(WebhookChannel.signature(body: Data(tampered), timestamp: "1767268800", secret: Self.secret) != expected)
        }
    }

    @Test func a5xxRetriesWithTheSameKeyAndBody() async throws {
        try await withServer([.init(status: 503), .init(status: 200)]) { server in
            let channel = try Self.channel(server.url)
            let first = await channel.deliver(Self.message(attempt: 1))
            guard case .retryAfter(let seconds, let reason) = first else {
                Issue.record("503 must retry, got \(first)")
                return
            }
            #expect(seconds >= 1 && seconds <= 30)
            #expect(reason.contains("HTTP 503"))
            #expect(await channel.deliver(Self.message(attempt: 2)) == .delivered(reference: "HTTP 200"))
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests[0].headers["idempotency-key"] == requests[1].headers["idempotency-key"])
            #expect(requests[0].body == requests[1].body)
        }
    }

    /// "http://127.0.0.1:PORT": what failure reasons name.
    static func receiver(_ url: URL) -> String { "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? 0)" }

    /// Failure reasons go to the journal, the log and the page's event stream: the URL's user,
    /// path and query, often the receiver's token, must not.
    @Test func failureReasonsNameTheReceiverWithoutItsSecrets() async throws {
        let server = try LoopbackHTTPServer(replies: [.init(status: 200)])
        let port = server.url.port ?? 0
        server.stop()
        let url = try #require(URL(string: "http://user:pw@127.0.0.1:\(port)/api/webhook/TOKEN123?key=SECRET"))
        let outcome = try await Self.channel(url).deliver(Self.message())
        guard case .retryAfter(_, let reason) = outcome else {
            Issue.record("a refused connection must retry, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("http://127.0.0.1:\(port):"), "\(reason)")
        for secret in ["user", "pw", "TOKEN123", "SECRET", "/api/webhook"] { #expect(!reason.contains(secret), "\(reason)") }
    }

    @Test func retryAfterFromTheServerIsHonouredWithinTheCap() async throws {
        try await withServer([.init(status: 429, headers: ["Retry-After": "7"]), .init(status: 503, headers: ["Retry-After": "86400"])]) { server in
            let channel = try Self.channel(server.url)
            #expect(await channel.deliver(Self.message()) == .retryAfter(seconds: 7, reason: "\(Self.receiver(server.url)) answered HTTP 429"))
            #expect(await channel.deliver(Self.message()) == .retryAfter(seconds: 300, reason: "\(Self.receiver(server.url)) answered HTTP 503"))
        }
    }

    @Test(arguments: [408, 425, 429, 500, 502, 504])
    func transientStatusesRetry(status: Int) async throws {
        try await withServer([.init(status: status)]) { server in
            guard case .retryAfter = try await Self.channel(server.url).deliver(Self.message()) else {
                Issue.record("HTTP \(status) must retry")
                return
            }
        }
    }

    /// A refused signature (a secret changed on one side, or a clock far off) is fixed while the
    /// alert waits: it retries, and says where to look.
    @Test(arguments: [401, 403])
    func aRefusedSignatureRetries(status: Int) async throws {
        try await withServer([.init(status: status)]) { server in
            let outcome = try await Self.channel(server.url).deliver(Self.message())
            guard case .retryAfter(_, let reason) = outcome else {
                Issue.record("HTTP \(status) must retry, got \(outcome)")
                return
            }
            #expect(reason.contains("HTTP \(status)") && reason.contains("secret") && reason.contains("clock"), "\(reason)")
        }
    }

    @Test(arguments: [400, 404, 410, 422])
    func otherClientErrorsArePermanent(status: Int) async throws {
        try await withServer([.init(status: status)]) { server in
            let outcome = try await Self.channel(server.url).deliver(Self.message())
            #expect(outcome == .permanentFailure(reason: "\(Self.receiver(server.url)) answered HTTP \(status)"))
        }
    }

    @Test func aRefusedConnectionRetries() async throws {
        let server = try LoopbackHTTPServer(replies: [.init(status: 200)])
        let url = server.url
        server.stop() // nothing listens on the port any more
        let outcome = try await Self.channel(url).deliver(Self.message())
        guard case .retryAfter(let seconds, let reason) = outcome else {
            Issue.record("a refused connection must retry, got \(outcome)")
            return
        }
        #expect(seconds >= 1 && seconds <= 30)
        #expect(reason.contains(Self.receiver(url)))
    }

    @Test func redirectsAreNotFollowed() async throws {
        try await withServer([.init(status: 302, headers: ["Location": "/elsewhere"]), .init(status: 200)]) { server in
            let outcome = try await Self.channel(server.url).deliver(Self.message())
            #expect(outcome == .permanentFailure(reason: "\(Self.receiver(server.url)) answered HTTP 302"))
            #expect(server.requests.count == 1)
        }
    }

    @Test func aServerThatNeverAnswersTimesOutAndRetries() async throws {
        try await withServer([.init(status: 0)]) { server in
            let start = ContinuousClock.now
            let outcome = try await Self.channel(server.url, timeout: 1).deliver(Self.message())
            // Generous: under load the 1 s timeout fires late, but a channel that ignored it would wait out
            // URLSession's 60 s default.
            #expect(ContinuousClock.now - start < .seconds(30))
            guard case .retryAfter(_, let reason) = outcome else {
                Issue.record("a timeout must retry, got \(outcome)")
                return
            }
            #expect(reason.contains("URLError"))
        }
    }

    @Test func theSameSeedGivesTheSameJitter() async throws {
        try await withServer([.init(status: 500)]) { server in
            let a = try await Self.channel(server.url, seed: 99).deliver(Self.message(attempt: 3))
            let b = try await Self.channel(server.url, seed: 99).deliver(Self.message(attempt: 3))
            #expect(a == b)
            guard case .retryAfter(let seconds, _) = a else {
                Issue.record("500 must retry")
                return
            }
            #expect(seconds <= 120) // attempt 3: ceiling 30 · 2²
        }
    }

    @Test func aPayloadThatCannotBeEncodedFailsForGood() async throws {
        var message = Self.message()
        message.payload.heading = .infinity
        let outcome = try await Self.channel(URL(string: "http://127.0.0.1:9/")!).deliver(message)
        guard case .permanentFailure(let reason) = outcome else {
            Issue.record("expected a permanent failure, got \(outcome)")
            return
        }
        #expect(reason.contains("payload"))
    }

    @Test func configurationIsChecked() {
        #expect(throws: FallDetectError.self) { try WebhookChannel(url: URL(string: "ftp://example.org/")!, secret: Self.secret) }
        #expect(throws: FallDetectError.self) { try WebhookChannel(url: URL(string: "https://example.org/")!, secret: Array("short".utf8)) }
        #expect(throws: FallDetectError.self) { try WebhookChannel(url: URL(string: "https://example.org/")!, secret: Self.secret, timeout: 0) }
    }
}

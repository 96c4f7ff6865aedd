import FallDetect
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs the payload JSON to a configured URL (https in production: the body carries a location).
///
/// Each request carries
///   - `X-Detectord-Timestamp`: Unix seconds when it was signed;
///   - `X-Detectord-Signature: sha256=<hex>`: HMAC-SHA256 with the shared secret over
///     `"<timestamp>.<body>"`; binding the timestamp lets the receiver refuse replays of an old
///     request (Stripe and Slack sign the same way);
///   - `Idempotency-Key`: the outbox key, identical on every retry, so the receiver drops
///     duplicates.
///
/// Outcomes: 2xx delivered; 408, 425, 429, 5xx and network errors retry (after `Retry-After` when
/// the server gives one in seconds, capped by the policy); 401 and 403 retry too (a secret or a
/// clock fixed meanwhile makes the same request pass); 3xx (redirects are not followed) and
/// other 4xx are permanent, since sending the same request again would get the same answer.
public final class WebhookChannel: AlertChannel {
    public let name: String
    public let url: URL
    public let retry: RetryPolicy
    /// Seconds for the whole request.
    public let timeout: Double
    private let secret: [UInt8]
    private let session: URLSession
    private let clock: @Sendable () -> Date
    private let random: Mutex<SplitMix64>

    /// - Parameters:
    ///   - secret: the shared HMAC key; at least 16 bytes, or the signature proves little.
    ///   - seed: fixes the jitter for tests; nil seeds from the system.
    ///   - clock: the time written in the timestamp header.
    public init(
        name: String = "webhook", url: URL, secret: [UInt8], timeout: Double = 10, retry: RetryPolicy = RetryPolicy(),
        seed: UInt64? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(FallDetectError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw FallDetectError(.invalidArgument, "\"\(url.absoluteString)\" is not an http(s) URL", field: "url")
        }
        guard secret.count >= 16 else {
            throw FallDetectError(.invalidArgument, "the webhook secret needs at least 16 bytes, has \(secret.count)", field: "secret")
        }
        guard timeout > 0, timeout.isFinite else {
            throw FallDetectError(.invalidArgument, "timeout must be positive, is \(timeout)", field: "timeout")
        }
        self.name = name
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.retry = retry
        self.clock = clock
        random = Mutex(seed.map { SplitMix64(seed: $0) } ?? SplitMix64())
        let configuration = URLSessionConfiguration.ephemeral
        // Every attempt must reach the server: no cache, no cookies, a fresh answer each time.
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration, delegate: WebhookRedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The receiver as failure reasons name it: scheme, host and port only. Reasons reach the
    /// journal, the log and the event stream, which the page shows; a URL's path, query or
    /// user part often is the receiver's secret (a Home Assistant or chat webhook's token).
    var receiver: String {
        var parts = URLComponents()
        parts.scheme = url.scheme
        parts.host = url.host
        parts.port = url.port
        return parts.string ?? "the webhook"
    }

    public func deliver(_ message: OutgoingMessage) async -> DeliveryOutcome {
        let body: Data
        do {
            body = try message.payload.json()
        } catch {
            return .permanentFailure(reason: error.description)
        }
        let request = self.request(body: body, idempotencyKey: message.idempotencyKey, at: clock())
        do {
            let (_, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .retryAfter(seconds: backoff(message.attempt), reason: "no HTTP response from \(receiver)")
            }
            return outcome(status: http.statusCode, retryAfterHeader: http.value(forHTTPHeaderField: "Retry-After"), attempt: message.attempt)
        } catch let error as URLError {
            let reason = "\(receiver): \(error.localizedDescription) (URLError \(error.code.rawValue))"
            switch error.code {
            case .badURL, .unsupportedURL:
                return .permanentFailure(reason: reason)
            default:
                // Refused, timed out, DNS, TLS: the network or the receiver may come back.
                return .retryAfter(seconds: backoff(message.attempt), reason: reason)
            }
        } catch {
            // The error's kind only: its details may hold the whole URL.
            return .retryAfter(seconds: backoff(message.attempt), reason: "\(receiver): \(type(of: error)) \((error as NSError).code)")
        }
    }

    /// The signed request; separate so tests can check it without a server.
    func request(body: Data, idempotencyKey: String, at time: Date) -> URLRequest {
        let timestamp = String(Int64(time.timeIntervalSince1970.rounded(.down)))
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.setValue(timestamp, forHTTPHeaderField: "X-Detectord-Timestamp")
        request.setValue("sha256=" + Self.signature(body: body, timestamp: timestamp, secret: secret), forHTTPHeaderField: "X-Detectord-Signature")
        return request
    }

    /// Hex HMAC-SHA256 over `"<timestamp>.<body>"`, as a receiver recomputes it.
    public static func signature(body: Data, timestamp: String, secret: [UInt8]) -> String {
        HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array((timestamp + ".").utf8) + Array(body), key: secret))
    }

    /// Classifies an HTTP status.
    func outcome(status: Int, retryAfterHeader: String?, attempt: Int) -> DeliveryOutcome {
        switch status {
        case 200..<300:
            return .delivered(reference: "HTTP \(status)")
        case 408, 425, 429, 500..<600:
            var delay = backoff(attempt)
            // The server knows its own load better than our backoff; the policy's cap still holds
            // so an emergency never waits an hour on a busy receiver.
            if let header = retryAfterHeader?.trimmingCharacters(in: .whitespaces), let seconds = Double(header), seconds.isFinite, seconds >= 0 {
                delay = min(retry.maximum, max(retry.minimum, seconds))
            }
            return .retryAfter(seconds: delay, reason: "\(receiver) answered HTTP \(status)")
        case 401, 403:
            // The signature refused: a secret changed on one side only, or this device's clock far
            // off (no real-time clock, no NTP yet) so the timestamp looks replayed. Both get fixed
            // while the alert waits, and given up it would never go.
            return .retryAfter(seconds: backoff(attempt), reason: "\(receiver) answered HTTP \(status): check the shared secret and this device's clock")
        default:
            return .permanentFailure(reason: "\(receiver) answered HTTP \(status)")
        }
    }

    private func backoff(_ attempt: Int) -> Double {
        random.withLock { generator in retry.delay(afterAttempt: attempt, using: &generator) }
    }
}

import FallDetect
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Who may reach what. Loopback (the device's own tools, `ctl`) needs nothing; any other
/// address gets the page's files and the login, and everything else only with a session cookie
/// or `Authorization: Bearer <token>`. A state-changing request whose `Origin` is not this
/// server is refused whoever sends it: with JSON-only bodies and SameSite=Strict cookies, that
/// closes cross-site requests from a page elsewhere.
struct AccessGuard: RouterMiddleware {
    typealias Context = DeviceRequestContext

    let tokens: LoginTokens
    /// Paths anyone may load: the page itself (it shows the login) and the login.
    let open: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .get, request.method != .head, let origin = request.headers[.origin],
            !Self.sameOrigin(origin, host: request.head.authority)
        {
            return Self.problem(.forbidden, "cross-site request refused (Origin \(origin))")
        }
        if context.isLoopback || open.contains(request.uri.path) { return try await next(request, context) }
        if Self.credentials(request, tokens: tokens)() { return try await next(request, context) }
        return Self.problem(.unauthorized, "log in with the device's token (detectord ctl token prints a new one)")
    }

    /// Whether what `request` logged in with still holds, asked now and again later: a response
    /// that lasts (the event stream) ends when its session expires or the token is replaced
    /// (`ctl token`), as a lost phone's open page must.
    /// A verdict is kept for `recheckNanoseconds`: the token is checked against the database,
    /// which each event of each stream would otherwise read.
    static func credentials(_ request: Request, tokens: LoginTokens, recheckNanoseconds: Int64 = 2_000_000_000) -> @Sendable () -> Bool {
        let session = cookie(LoginTokens.cookieName, in: request.headers[.cookie])
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let last = Mutex<(at: Int64, valid: Bool)?>(nil)
        return {
            // Sessions live in memory on the monotonic clock: setting the wall clock does not end them.
            let now = MonotonicTime.nowNanoseconds()
            if let kept = last.withLock({ $0 }), now - kept.at < recheckNanoseconds { return kept.valid }
            let valid = session.map { tokens.isValid(session: $0, at: now) } == true || bearer.map { tokens.isValid(token: $0) } == true
            last.withLock { $0 = (now, valid) }
            return valid
        }
    }

    /// `Origin` is scheme://host[:port]; it must name the host the request was sent to.
    static func sameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let url = URL(string: origin), let originHost = url.host else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        let bracketed = originHost.contains(":") ? "[\(originHost)]" : originHost
        return (bracketed + port).lowercased() == host.lowercased()
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }

    static func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
        (try? APIRoutes.problem(status, message)) ?? Response(status: status)
    }
}

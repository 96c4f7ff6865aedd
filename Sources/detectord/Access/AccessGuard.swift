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
/// closes cross-site requests from a page elsewhere. Installed whatever the API listens on: with
/// no login (`tokens` nil, a loopback-only `listen`) the origin check still holds, and a request
/// from elsewhere (a host name that resolved beyond loopback) is refused, not let through.
struct AccessGuard: RouterMiddleware {
    typealias Context = DeviceRequestContext

    let tokens: LoginTokens?
    /// Paths anyone may load: the page itself (it shows the login) and the login.
    let open: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .get, request.method != .head, let origin = request.headers[.origin],
            !Self.sameOrigin(origin, host: request.head.authority)
        {
            return Self.problem(.forbidden, "cross-site request refused (Origin \(origin))")
        }
        if context.isLoopback || open.contains(request.uri.path) { return try await next(request, context) }
        guard let tokens else { return Self.problem(.forbidden, "this device's API is for its own loopback clients only ([api] listen)") }
        if Self.loggedIn(request.headers, tokens: tokens, at: MonotonicTime.nowNanoseconds()) { return try await next(request, context) }
        return Self.problem(.unauthorized, "log in with the device's token (detectord ctl token prints a new one)")
    }

    /// Whether what `request` logged in with still holds, asked now and again later: a response
    /// that lasts (the event stream) ends when its session expires or the token is replaced
    /// (`ctl token`), as a lost phone's open page must.
    /// A verdict is kept for `recheckNanoseconds`: the token is checked against the database,
    /// which each event of each stream would otherwise read.
    static func credentials(_ request: Request, tokens: LoginTokens, recheckNanoseconds: Int64 = 2_000_000_000) -> @Sendable () -> Bool {
        let headers = request.headers
        let last = Mutex<(at: Int64, valid: Bool)?>(nil)
        return {
            let now = MonotonicTime.nowNanoseconds()
            if let kept = last.withLock({ $0 }), now - kept.at < recheckNanoseconds { return kept.valid }
            let valid = loggedIn(headers, tokens: tokens, at: now)
            last.withLock { $0 = (now, valid) }
            return valid
        }
    }

    /// Whether a request's headers carry a live session cookie or the bearer token, at `now`
    /// (monotonic: sessions live in memory on that clock, so setting the wall clock does not end them).
    static func loggedIn(_ headers: HTTPFields, tokens: LoginTokens, at now: Int64) -> Bool {
        if let session = cookie(LoginTokens.cookieName, in: headers[.cookie]), tokens.isValid(session: session, at: now) { return true }
        guard let header = headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        return tokens.isValid(token: String(header.dropFirst(7)))
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

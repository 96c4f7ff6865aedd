import Hummingbird

/// Loopback callers need no login (`AccessGuard`), so a browser must not become one by DNS
/// rebinding: a page from a name the attacker points at 127.0.0.1 reaches this server from
/// loopback, with that name in `Host`. A request from loopback must name a loopback host. Tools
/// without a `Host` (HTTP/1.0) are no browser and pass.
struct LoopbackHostGuard: RouterMiddleware {
    typealias Context = DeviceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.isLoopback, let authority = request.head.authority, !Self.isLoopback(authority: authority) {
            return AccessGuard.problem(.forbidden, "a request from this device must name it localhost, 127.0.0.1 or [::1], not \(authority)")
        }
        return try await next(request, context)
    }

    /// `localhost`, `127.x.x.x` or `[::1]`, with or without a port.
    static func isLoopback(authority: String) -> Bool {
        let text = authority.lowercased()
        let host: Substring
        if text.hasPrefix("[") {
            host = text.dropFirst().prefix { $0 != "]" }
        } else {
            host = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

import DeviceLink
import FallDetect
import Foundation
import Synchronization

/// The login for visitors from other machines: a random token shown once (by `detectord ctl
/// token`, or in the log at the first start that listens beyond loopback) and kept only as its
/// keyed hash, so a copied database does not let anyone in. A correct token opens a session: a
/// second random value in an HttpOnly, SameSite=Strict cookie, kept in memory for `sessionLifetime`
/// and only while the token it came from is the current one (`detectord ctl token` writes a new
/// one straight into the database, so it works whatever the API listens on).
final class LoginTokens: Sendable {
    static let settingKey = "loginTokenHash"
    static let cookieName = "detectord_session"
    /// A week: the person setting up a device logs in once, not every visit.
    static let sessionLifetime: Int64 = 7 * 24 * 3600 * 1_000_000_000

    private let store: WorkflowStore
    /// Session → (expiry on the monotonic clock, the hash of the token that opened it).
    private let sessions = Mutex<[String: (until: Int64, token: String)]>([:])

    init(store: WorkflowStore) {
        self.store = store
    }

    /// A new token replaces the old one (whoever had it must log in again); returns it, once.
    func issue() throws -> String {
        let token = Self.random()
        try store.setSetting(Self.settingKey, Self.hash(token))
        return token
    }

    /// Issues a token when none exists yet; nil when one does.
    func issueIfMissing() throws -> String? {
        guard try store.setting(Self.settingKey, as: String.self) == nil else { return nil }
        return try issue()
    }

    func isValid(token: String) -> Bool {
        guard let stored = currentHash() else { return false }
        return ConstantTime.equal(Self.hash(token), stored)
    }

    private func currentHash() -> String? { (try? store.setting(Self.settingKey, as: String.self)) ?? nil }

    /// A session for a correct token; nil for a wrong one.
    func login(token: String, at now: Int64) -> String? {
        guard isValid(token: token), let hash = currentHash() else { return nil }
        let session = Self.random()
        sessions.withLock { table in
            table = table.filter { $0.value.until > now }
            table[session] = (now + Self.sessionLifetime, hash)
        }
        return session
    }

    func isValid(session: String, at now: Int64) -> Bool {
        guard let entry = sessions.withLock({ $0[session] }), entry.until > now, let hash = currentHash() else { return false }
        return ConstantTime.equal(entry.token, hash)
    }

    /// 32 random bytes from the system's generator, base64url without padding.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A keyed SHA-256: the token has 256 random bits, so it needs no slow hash.
    static func hash(_ token: String) -> String {
        HMACSHA256.hex(HMACSHA256.authenticationCode(for: Array(token.utf8), key: Array("detectord login token".utf8)))
    }
}

import Synchronization

/// At most `burst` wrong PIN (or login token) tries per client in any `window`; further tries are
/// refused before any PIN is checked. The workflow's lockout counts wrong tries for everyone
/// across restarts; this keeps one client from spending the daemon's time on slow yescrypt
/// checks, and answers it with how long to wait. Times are monotonic (`MonotonicTime`): a wall
/// clock set back an hour must not lock a client out for that hour.
final class PINRateLimiter: Sendable {
    let burst: Int
    let window: Int64
    private let failures = Mutex<[String: [Int64]]>([:])

    init(burst: Int = 5, windowSeconds: Double = 60) {
        self.burst = burst
        window = Int64(windowSeconds * 1e9)
    }

    /// nil when `client` may try now; else the seconds to wait.
    func admit(_ client: String, at now: Int64) -> Double? {
        failures.withLock { table in
            let recent = (table[client] ?? []).filter { now - $0 < window }
            table[client] = recent.isEmpty ? nil : recent
            guard recent.count >= burst else { return nil }
            return Double(recent[recent.count - burst] + window - now) / 1e9
        }
    }

    /// Counts a wrong try of `client`.
    func failed(_ client: String, at now: Int64) {
        failures.withLock { $0[client, default: []].append(now) }
    }
}

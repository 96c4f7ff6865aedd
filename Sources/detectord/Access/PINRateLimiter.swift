import Synchronization

/// At most `burst` wrong PIN (or login token) tries per client in any `window`; further tries are
/// refused before any PIN is checked. The workflow's lockout counts wrong tries for everyone
/// across restarts; this keeps one client from spending the daemon's time on slow yescrypt
/// checks, and answers it with how long to wait. Times are monotonic (`MonotonicTime`): a wall
/// clock set back an hour must not lock a client out for that hour.
final class PINRateLimiter: Sendable {
    let burst: Int
    let window: Int64
    private let failures = Mutex<(table: [String: [Int64]], pruneAt: Int)>(([:], PINRateLimiter.pruneAbove))

    init(burst: Int = 5, windowSeconds: Double = 60) {
        self.burst = burst
        window = Int64(windowSeconds * 1e9)
    }

    /// nil when `client` may try now; else the seconds to wait.
    func admit(_ client: String, at now: Int64) -> Double? {
        failures.withLock { state in
            let recent = (state.table[client] ?? []).filter { now - $0 < window }
            state.table[client] = recent.isEmpty ? nil : recent
            guard recent.count >= burst else { return nil }
            return Double(recent[recent.count - burst] + window - now) / 1e9
        }
    }

    /// Above this many clients, those whose tries have all left the window are forgotten.
    static let pruneAbove = 1024

    /// Counts a wrong try of `client`.
    func failed(_ client: String, at now: Int64) {
        failures.withLock { state in
            state.table[client, default: []].append(now)
            // A client is forgotten only when it tries again, so tries from ever new addresses
            // (an IPv6 prefix holds 2^64) would grow the table without end. The next prune waits
            // for the table to double, so a flood costs each try O(1) on average.
            if state.table.count > state.pruneAt {
                state.table = state.table.filter { _, times in times.contains { now - $0 < window } }
                state.pruneAt = max(Self.pruneAbove, 2 * state.table.count)
            }
        }
    }

    /// Clients with a wrong try on record.
    var trackedClients: Int { failures.withLock { $0.table.count } }
}

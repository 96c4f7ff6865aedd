import Testing
@testable import detectord

@Suite struct PINRateLimiterTests {
    let s: Int64 = 1_000_000_000

    @Test func fiveWrongTriesAMinutePerClientThenAWait() {
        let limiter = PINRateLimiter(burst: 5, windowSeconds: 60)
        for n in 0..<5 {
            #expect(limiter.admit("10.0.0.2", at: Int64(n) * s) == nil)
            limiter.failed("10.0.0.2", at: Int64(n) * s)
        }
        // The oldest of the five wrong tries leaves the window at 60 s.
        #expect(limiter.admit("10.0.0.2", at: 10 * s) == 50)
        #expect(limiter.admit("10.0.0.3", at: 10 * s) == nil, "another client is not held up")
        #expect(limiter.admit("10.0.0.2", at: 60 * s) == nil)
    }

    @Test func rightTriesAreNotCounted() {
        let limiter = PINRateLimiter(burst: 2, windowSeconds: 60)
        for n in 0..<10 { #expect(limiter.admit("10.0.0.2", at: Int64(n) * s) == nil) }
    }

    /// Wrong tries from ever new addresses must not grow the table without end: clients whose
    /// tries have left the window are forgotten once there are many.
    @Test func clientsWhoseTriesAreOldAreForgotten() {
        let limiter = PINRateLimiter(burst: 5, windowSeconds: 60)
        for n in 0..<5000 { limiter.failed("2001:db8::\(String(n, radix: 16))", at: Int64(n) * s / 1000) }
        #expect(limiter.trackedClients == 5000, "tries inside the window are all kept")
        // Past the window, the next prune forgets them; it comes once the table has doubled.
        for n in 0..<5000 { limiter.failed("2001:db8:1::\(String(n, radix: 16))", at: 70 * s) }
        #expect(limiter.trackedClients < 10_000)
        // A client at its limit keeps it through the prunes a flood brings.
        for _ in 0..<5 { limiter.failed("10.0.0.2", at: 139 * s) }
        for n in 0..<10_000 { limiter.failed("2001:db8:2::\(String(n, radix: 16))", at: 140 * s) }
        #expect(limiter.trackedClients <= 10_001, "the earlier clients are gone")
        #expect(limiter.admit("10.0.0.2", at: 140 * s) == 59)
    }
}

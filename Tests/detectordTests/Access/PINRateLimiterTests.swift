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
}

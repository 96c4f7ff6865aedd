import Testing
@testable import FallDetect

@Suite struct RetryPolicyTests {
    @Test func theCeilingDoublesUpToTheMaximum() {
        let policy = RetryPolicy(base: 30, maximum: 300, minimum: 1)
        #expect((1...6).map { policy.ceiling(afterAttempt: $0) } == [30, 60, 120, 240, 300, 300])
        #expect(policy.ceiling(afterAttempt: 0) == 30)
        #expect(policy.ceiling(afterAttempt: 10_000) == 300)
    }

    @Test func delaysStayWithinTheFloorAndTheCeiling() {
        let policy = RetryPolicy(base: 2, maximum: 60, minimum: 0.5)
        var generator = SplitMix64(seed: 42)
        for attempt in 1...20 {
            for _ in 0..<50 {
                let delay = policy.delay(afterAttempt: attempt, using: &generator)
                #expect(delay >= 0.5 && delay <= policy.ceiling(afterAttempt: attempt))
            }
        }
    }

    @Test func theSameSeedGivesTheSameDelays() {
        let policy = RetryPolicy()
        var a = SplitMix64(seed: 7)
        var b = SplitMix64(seed: 7)
        let first = (1...8).map { policy.delay(afterAttempt: $0, using: &a) }
        let second = (1...8).map { policy.delay(afterAttempt: $0, using: &b) }
        #expect(first == second)
        var c = SplitMix64(seed: 8)
        #expect((1...8).map { policy.delay(afterAttempt: $0, using: &c) } != first)
    }

    /// Full jitter: delays spread over the whole range rather than bunching near the ceiling.
    @Test func jitterSpreadsOverTheWholeRange() {
        let policy = RetryPolicy(base: 100, maximum: 100, minimum: 0)
        var generator = SplitMix64(seed: 1)
        let delays = (0..<2000).map { _ in policy.delay(afterAttempt: 1, using: &generator) }
        let mean = delays.reduce(0, +) / Double(delays.count)
        #expect(abs(mean - 50) < 3)
        #expect(delays.contains { $0 < 10 } && delays.contains { $0 > 90 })
    }

    @Test func aFloorAboveTheMaximumIsClamped() {
        let policy = RetryPolicy(base: 1, maximum: 5, minimum: 10)
        var generator = SplitMix64(seed: 3)
        #expect(policy.delay(afterAttempt: 1, using: &generator) == 5)
    }
}

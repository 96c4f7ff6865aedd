import Testing
@testable import detectord

/// A failure that keeps coming back is told once a minute; another failure, or the same after a
/// success, at once.
@Suite struct RepeatedFailureFilterTests {
    let s: Int64 = 1_000_000_000

    @Test func theSameFailureIsToldOnceAMinute() {
        let filter = RepeatedFailureFilter()
        #expect(filter.shouldTell("disk full", at: 0))
        #expect(!filter.shouldTell("disk full", at: 5 * s))
        #expect(!filter.shouldTell("disk full", at: 59 * s))
        #expect(filter.shouldTell("disk full", at: 60 * s))
    }

    @Test func anotherFailureOrOneAfterASuccessIsToldAtOnce() {
        let filter = RepeatedFailureFilter()
        #expect(filter.shouldTell("disk full", at: 0))
        #expect(filter.shouldTell("database locked", at: 1 * s))
        filter.cleared()
        #expect(filter.shouldTell("database locked", at: 20 * s))
        // A clock stepped back is no reason to stay silent.
        #expect(filter.shouldTell("database locked", at: 10 * s))
    }

    /// Two outbox lanes read the clock, then fail, and are told in the other order: the later
    /// reading first. The same failure at the same moment is told once.
    @Test func aSlightlyEarlierReadingIsTheSameMoment() {
        let filter = RepeatedFailureFilter()
        #expect(filter.shouldTell("disk full", at: 10 * s + 3_000_000))
        #expect(!filter.shouldTell("disk full", at: 10 * s))
    }
}

import Testing
@testable import detectord

/// The system clock against the receiver's UTC: news when they start or stop disagreeing.
@Suite struct GNSSClockCheckTests {
    let s: Int64 = 1_000_000_000
    let fix: Int64 = 1_800_000_000_000_000_000

    @Test func aDisagreementIsToldOnceAndItsEndToo() {
        var check = GNSSClockCheck()
        #expect(check.check(systemUTC: fix + 59 * s, fixUTC: fix) == nil, "within a minute: agrees")
        #expect(check.check(systemUTC: fix - 3600 * s, fixUTC: fix) == .off(seconds: -3600), "an hour behind")
        #expect(check.offset == -3600)
        #expect(check.check(systemUTC: fix - 3630 * s, fixUTC: fix) == nil, "the same disagreement, drifting, is no news")
        #expect(check.check(systemUTC: fix + 86_400 * s, fixUTC: fix) == .off(seconds: 86_400), "set wrongly again: news")
        #expect(check.check(systemUTC: fix + 2 * s, fixUTC: fix) == .agrees)
        #expect(check.offset == nil)
        #expect(check.check(systemUTC: fix, fixUTC: fix) == nil)
    }
}

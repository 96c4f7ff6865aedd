import Testing

@testable import FallDetect

@Suite struct ConfusionCountsTests {
    /// 4 falls (3 flagged) and 6 ADL (1 flagged): SE 3/4, SP 5/6, AC (3/4 + 5/6)/2 = 19/24.
    @Test func paperMetricsOnAHandMadeSet() {
        var c = ConfusionCounts()
        for flagged in [true, true, true, false] { c.add(isFall: true, flagged: flagged) }
        for flagged in [false, false, true, false, false, false] { c.add(isFall: false, flagged: flagged) }
        #expect(c == ConfusionCounts(fallsDetected: 3, fallsMissed: 1, adlsCleared: 5, falseAlarms: 1))
        #expect(c.falls == 4 && c.adls == 6 && c.trials == 10 && c.triggered == 4)
        #expect(c.sensitivity == 0.75)
        #expect(abs(c.specificity! - 5.0 / 6) < 1e-12)
        #expect(abs(c.balancedAccuracy! - 19.0 / 24) < 1e-12)
    }

    /// Elderly subjects here never fell: their SE (and so AC) is undefined, not 0 or 1.
    @Test func undefinedWithoutAClass() {
        var adlOnly = ConfusionCounts()
        adlOnly.add(isFall: false, flagged: false)
        #expect(adlOnly.sensitivity == nil)
        #expect(adlOnly.specificity == 1)
        #expect(adlOnly.balancedAccuracy == nil)
        #expect(ConfusionCounts().specificity == nil)
    }

    @Test func mergeAdds() {
        var a = ConfusionCounts(fallsDetected: 1, fallsMissed: 2, adlsCleared: 3, falseAlarms: 4)
        a.merge(ConfusionCounts(fallsDetected: 10, fallsMissed: 20, adlsCleared: 30, falseAlarms: 40))
        #expect(a == ConfusionCounts(fallsDetected: 11, fallsMissed: 22, adlsCleared: 33, falseAlarms: 44))
    }
}

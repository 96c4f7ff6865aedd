import Testing

@testable import FallDetect

@Suite struct FigureIntervalsTests {
    /// Exact Poisson limits for the mean from standard tables (χ² quantiles / 2).
    @Test(arguments: [
        (0, 0.0, 3.68888), (1, 0.025318, 5.57164), (2, 0.242209, 7.22469), (10, 4.79539, 18.39036), (59, 44.9135, 76.1057),
    ])
    func poissonLimitsMatchTheTables(events: Int, lower: Double, upper: Double) {
        let r = FigureIntervals.poissonRate(events: events, exposure: 1)
        #expect(abs(r.lowerBound - lower) < 1e-3 * max(1, lower), "\(events): \(r)")
        #expect(abs(r.upperBound - upper) < 1e-3 * upper, "\(events): \(r)")
    }

    @Test func poissonRateScalesWithExposure() {
        let r = FigureIntervals.poissonRate(events: 2, exposure: 10.43)
        #expect(abs(r.lowerBound - 0.242209 / 10.43) < 1e-5 && abs(r.upperBound - 7.22469 / 10.43) < 1e-4)
        // No alarm in 10 h still allows 0.37 an hour: a short recording cannot show a low rate.
        #expect(abs(FigureIntervals.poissonRate(events: 0, exposure: 10).upperBound - 0.368888) < 1e-4)
        // A narrower level gives a narrower interval.
        let ninety = FigureIntervals.poissonRate(events: 2, exposure: 10.43, level: 0.9)
        #expect(ninety.lowerBound > r.lowerBound && ninety.upperBound < r.upperBound)
    }

    /// One subject's result: `falls` falls of which `missed` missed, `adls` ADL of which
    /// `flagged` had a detection, over `hours`.
    static func subject(falls: Int, missed: Int, adls: Int, flagged: Int, hours: Double) -> OnlineProtocolResult.GroupResult {
        var g = OnlineProtocolResult.GroupResult()
        g.counts = ConfusionCounts(fallsDetected: falls - missed, fallsMissed: missed, adlsCleared: adls - flagged, falseAlarms: flagged)
        g.falseAlarms = flagged
        g.adlHours = hours
        return g
    }

    static func result(_ subjects: [OnlineProtocolResult.GroupResult]) -> OnlineProtocolResult {
        var r = OnlineProtocolResult(
            detector: "x", threshold: 0.5, counts: ConfusionCounts(), falseAlarms: 0, strayDetectionsInFalls: 0, adlHours: 0,
            latencies: [], byGroup: [:], perActivity: [:])
        for (i, s) in subjects.enumerated() {
            r.bySubject["S\(100 + i)"] = s
            r.counts.merge(s.counts)
            r.falseAlarms += s.falseAlarms
            r.adlHours += s.adlHours
        }
        return r
    }

    @Test func subjectsThatAllLookAlikeGiveNoSpread() {
        let r = Self.result(Array(repeating: Self.subject(falls: 50, missed: 1, adls: 70, flagged: 1, hours: 0.4), count: 20))
        let i = FigureIntervals(r)
        #expect(i.sensitivity == 0.98...0.98)
        #expect(abs((i.specificity?.lowerBound ?? 0) - 69.0 / 70) < 1e-12 && i.specificity?.upperBound == i.specificity?.lowerBound)
        #expect(i.level == 0.95)
    }

    /// The same 10 misses in 1000 falls: spread over ten people, or all of one person's. Resampling
    /// people must see the second as much less certain; counting trials alone would not.
    @Test func missesOfOnePersonWidenTheInterval() throws {
        let spread = Self.result(Array(repeating: Self.subject(falls: 50, missed: 1, adls: 70, flagged: 0, hours: 0.4), count: 10)
            + Array(repeating: Self.subject(falls: 50, missed: 0, adls: 70, flagged: 0, hours: 0.4), count: 10))
        let clustered = Self.result([Self.subject(falls: 50, missed: 10, adls: 70, flagged: 0, hours: 0.4)]
            + Array(repeating: Self.subject(falls: 50, missed: 0, adls: 70, flagged: 0, hours: 0.4), count: 19))
        #expect(spread.counts == clustered.counts)
        let a = try #require(FigureIntervals(spread).sensitivity), b = try #require(FigureIntervals(clustered).sensitivity)
        for i in [a, b] { #expect(i.contains(0.99)) }
        #expect(b.upperBound - b.lowerBound > 1.5 * (a.upperBound - a.lowerBound), "\(a) \(b)")
        // No resample of the clustered set can miss anything but multiples of ten falls.
        #expect(b.upperBound == 1)
    }

    @Test func theSameResultGivesTheSameIntervalsAndOtherSeedsSimilarOnes() {
        let r = Self.result((0..<25).map { Self.subject(falls: 45, missed: $0 % 4 == 0 ? 2 : 0, adls: 60, flagged: $0 % 7 == 0 ? 1 : 0, hours: 0.35) })
        #expect(FigureIntervals(r) == FigureIntervals(r))
        let other = FigureIntervals(r, seed: 99)
        #expect(abs((other.sensitivity?.lowerBound ?? 0) - (FigureIntervals(r).sensitivity?.lowerBound ?? 1)) < 0.005)
    }

    @Test func noFallsOrNoADLGiveNoInterval() {
        let adlOnly = FigureIntervals(Self.result([Self.subject(falls: 0, missed: 0, adls: 30, flagged: 2, hours: 0.5)]))
        #expect(adlOnly.sensitivity == nil)
        #expect(adlOnly.specificity != nil && adlOnly.falseAlarmsPerHour != nil)
        let fallsOnly = FigureIntervals(Self.result([Self.subject(falls: 30, missed: 2, adls: 0, flagged: 0, hours: 0)]))
        #expect(fallsOnly.specificity == nil && fallsOnly.falseAlarmsPerHour == nil)
        #expect(fallsOnly.sensitivity == (28.0 / 30)...(28.0 / 30))
    }
}

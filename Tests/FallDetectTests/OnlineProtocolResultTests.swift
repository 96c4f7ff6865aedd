import Testing

@testable import FallDetect

@Suite struct OnlineProtocolResultTests {
    @Test func percentileInterpolatesLinearlyBetweenClosestRanks() {
        let values: [Double] = [10, 1, 4, 3, 2]  // sorted 1 2 3 4 10
        #expect(OnlineProtocolResult.percentile(values, 0.5) == 3)
        // p95: rank 0.95·4 = 3.8, between 4 and 10: 4 + 6·0.8.
        #expect(abs(OnlineProtocolResult.percentile(values, 0.95)! - 8.8) < 1e-12)
        #expect(OnlineProtocolResult.percentile(values, 0) == 1)
        #expect(OnlineProtocolResult.percentile(values, 1) == 10)
        // p25: rank 1 exactly.
        #expect(OnlineProtocolResult.percentile(values, 0.25) == 2)
    }

    @Test func evenCountMedianIsTheMeanOfTheMiddleTwo() {
        #expect(OnlineProtocolResult.percentile([3, 1], 0.5) == 2)
        #expect(abs(OnlineProtocolResult.percentile([0.4, 0.1, 0.9, 0.6], 0.5)! - 0.5) < 1e-12)
        // p95 of four: rank 2.85, between 0.6 and 0.9.
        #expect(abs(OnlineProtocolResult.percentile([0.4, 0.1, 0.9, 0.6], 0.95)! - (0.6 + 0.3 * 0.85)) < 1e-12)
    }

    @Test func oneValueAndNone() {
        #expect(OnlineProtocolResult.percentile([2.5], 0.95) == 2.5)
        #expect(OnlineProtocolResult.percentile([], 0.5) == nil)
    }

    static func result(
        counts: ConfusionCounts, falseAlarms: Int, stray: Int, hours: Double, latencies: [Double],
        groups: [SisFallTrialName.Group: OnlineProtocolResult.GroupResult], activities: [String: ConfusionCounts]
    ) -> OnlineProtocolResult {
        OnlineProtocolResult(
            detector: "x", threshold: 1, counts: counts, falseAlarms: falseAlarms, strayDetectionsInFalls: stray, adlHours: hours,
            latencies: latencies, byGroup: groups, perActivity: activities)
    }

    static func group(_ counts: ConfusionCounts, falseAlarms: Int, hours: Double, latencies: [Double]) -> OnlineProtocolResult.GroupResult {
        var g = OnlineProtocolResult.GroupResult()
        g.counts = counts
        g.falseAlarms = falseAlarms
        g.adlHours = hours
        g.latencies = latencies
        return g
    }

    @Test func mergeAddsEverything() throws {
        let a = Self.result(
            counts: ConfusionCounts(fallsDetected: 2, fallsMissed: 1, adlsCleared: 3, falseAlarms: 1), falseAlarms: 2, stray: 1, hours: 0.5,
            latencies: [0.3, 0.7],
            groups: [.young: Self.group(ConfusionCounts(fallsDetected: 2, fallsMissed: 1, adlsCleared: 3, falseAlarms: 1), falseAlarms: 2, hours: 0.5, latencies: [0.3, 0.7])],
            activities: ["F01": ConfusionCounts(fallsDetected: 2, fallsMissed: 1, adlsCleared: 0, falseAlarms: 0),
                "D01": ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 3, falseAlarms: 1)])
        let b = Self.result(
            counts: ConfusionCounts(fallsDetected: 1, fallsMissed: 0, adlsCleared: 4, falseAlarms: 2), falseAlarms: 5, stray: 0, hours: 0.25,
            latencies: [1.1],
            groups: [.young: Self.group(ConfusionCounts(fallsDetected: 1, fallsMissed: 0, adlsCleared: 1, falseAlarms: 0), falseAlarms: 0, hours: 0.05, latencies: [1.1]),
                .elderly: Self.group(ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 3, falseAlarms: 2), falseAlarms: 5, hours: 0.2, latencies: [])],
            activities: ["F01": ConfusionCounts(fallsDetected: 1, fallsMissed: 0, adlsCleared: 0, falseAlarms: 0),
                "D02": ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 4, falseAlarms: 2)])
        var m = a
        m.falseAlarmTrials = [try SisFallTrialName(parsing: "D01_SA02_R01")]
        var other = b
        other.falseAlarmTrials = [try SisFallTrialName(parsing: "D01_SA01_R01")]
        other.missedFalls = [try SisFallTrialName(parsing: "F01_SA01_R01")]
        m.merge(other)
        // Names from both, in trial order.
        #expect(m.falseAlarmTrials.map(\.description) == ["D01_SA01_R01", "D01_SA02_R01"])
        #expect(m.missedFalls.map(\.description) == ["F01_SA01_R01"])
        #expect(m.counts == ConfusionCounts(fallsDetected: 3, fallsMissed: 1, adlsCleared: 7, falseAlarms: 3))
        #expect(m.falseAlarms == 7)
        #expect(m.strayDetectionsInFalls == 1)
        #expect(m.adlHours == 0.75)
        #expect(m.latencies == [0.3, 0.7, 1.1])
        #expect(abs((m.falseAlarmsPerHour ?? 0) - 7 / 0.75) < 1e-9)
        let young = m.byGroup[.young], elderly = m.byGroup[.elderly]
        #expect(young?.counts == ConfusionCounts(fallsDetected: 3, fallsMissed: 1, adlsCleared: 4, falseAlarms: 1))
        #expect(young?.falseAlarms == 2)
        #expect(abs((young?.adlHours ?? 0) - 0.55) < 1e-12)
        #expect(young?.latencies == [0.3, 0.7, 1.1])
        #expect(elderly?.counts == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 3, falseAlarms: 2))
        #expect(elderly?.falseAlarms == 5)
        #expect(m.perActivity["F01"] == ConfusionCounts(fallsDetected: 3, fallsMissed: 1, adlsCleared: 0, falseAlarms: 0))
        #expect(m.perActivity["D01"] == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 3, falseAlarms: 1))
        #expect(m.perActivity["D02"] == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 4, falseAlarms: 2))
        #expect(m.perActivity.count == 3)
        #expect(abs((m.medianLatency ?? 0) - 0.7) < 1e-12)
    }

    @Test func mergingTwoEvaluationsEqualsEvaluatingTheirUnion() throws {
        let first = try OnlineProtocolTests.mixedTrials()
        let second = [
            try OnlineProtocolTests.fall("F03_SE06_R02", [OnlineProtocolTests.candidate(at: 10.4)]),
            try OnlineProtocolTests.adl("D01_SE02_R01", seconds: 90, [OnlineProtocolTests.candidate(at: 30)]),
        ]
        let judge = OnlineProtocolTests.PeakJudge()
        var merged = OnlineProtocol.evaluate(judge, on: first)
        merged.merge(OnlineProtocol.evaluate(judge, on: second))
        let whole = OnlineProtocol.evaluate(judge, on: first + second)
        #expect(merged.counts == whole.counts)
        #expect(merged.falseAlarms == whole.falseAlarms)
        #expect(merged.strayDetectionsInFalls == whole.strayDetectionsInFalls)
        #expect(abs(merged.adlHours - whole.adlHours) < 1e-12)
        #expect(merged.latencies.sorted() == whole.latencies.sorted())
        #expect(merged.perActivity == whole.perActivity)
        // F03_SE06_R02 joins SE06's earlier fall; SE02 is new.
        #expect(merged.bySubject.keys.sorted() == whole.bySubject.keys.sorted())
        for subject in whole.bySubject.keys {
            #expect(merged.bySubject[subject]?.counts == whole.bySubject[subject]?.counts, "\(subject)")
            #expect(merged.bySubject[subject]?.falseAlarms == whole.bySubject[subject]?.falseAlarms, "\(subject)")
        }
        #expect(merged.bySubject["SE06"]?.counts.falls == 2)
        for g in SisFallTrialName.Group.allCases {
            #expect(merged.byGroup[g]?.counts == whole.byGroup[g]?.counts)
            #expect(merged.byGroup[g]?.falseAlarms == whole.byGroup[g]?.falseAlarms)
            #expect(merged.byGroup[g]?.latencies.sorted() == whole.byGroup[g]?.latencies.sorted())
        }
    }
}

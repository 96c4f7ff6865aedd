import Foundation
import Testing

@testable import FallDetect

/// The online protocol on hand-built trials and candidates, judged by a stub whose score is the
/// candidate's peak |a|: which candidate becomes a detection is decided by the test alone.
@Suite struct OnlineProtocolTests {
    struct PeakJudge: FallJudge {
        var threshold: Float = 2
        var name: String { "peak" }
        func score(_ c: FallCandidate) -> Float { c.peakAcceleration }
        func confidence(score: Float) -> Float { score >= threshold ? 1 : 0 }
    }

    static let second: Int64 = 1_000_000_000

    static func ns(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }

    /// A candidate decided at `seconds`, with impact `peak` g.
    static func candidate(at seconds: Double, peak: Float = 3) -> FallCandidate {
        let decision = ns(seconds)
        return FallCandidate(
            peakAcceleration: peak, saturated: false, minimumAccelerationBefore: 0.3, lowAccelerationSeconds: 0.2, tiltBefore: 5,
            tiltAfter: 80, maximumTiltAfter: 85, tiltAtDecision: 82, minimumVerticalVelocity: -1.5, peakAngularRate: 200,
            motionAfter: 0.05, activityBefore: 0.1, fallingStartNanoseconds: decision - ns(1), impactNanoseconds: decision - ns(0.6),
            decisionNanoseconds: decision)
    }

    /// A fall trial labelled FALL from 10 s to 11 s.
    static func fall(_ name: String, _ candidates: [FallCandidate], span: ClosedRange<Int64>? = (10 * second)...(11 * second)) throws -> OnlineTrial {
        OnlineTrial(name: try SisFallTrialName(parsing: name), samples: 3000, seconds: 15, fallSpan: span, candidates: candidates)
    }

    static func adl(_ name: String, seconds: Double, _ candidates: [FallCandidate]) throws -> OnlineTrial {
        OnlineTrial(name: try SisFallTrialName(parsing: name), samples: Int(seconds * 200), seconds: seconds, fallSpan: nil, candidates: candidates)
    }

    static let open = DetectionGate(refractorySeconds: 0)

    // MARK: Falls

    @Test func aDetectionInsideTheSpanDetectsTheFall() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [try Self.fall("F01_SA01_R01", [Self.candidate(at: 10.5)])])
        #expect(r.counts.fallsDetected == 1 && r.counts.fallsMissed == 0)
        #expect(r.strayDetectionsInFalls == 0)
        #expect(r.latencies.count == 1)
        #expect(abs(r.latencies[0] - 0.5) < 1e-9)
        #expect(r.detector == "peak")
        #expect(r.threshold == 2)
    }

    @Test func aDetectionAtTheEndOfTheToleranceDetectsAndJustAfterDoesNot() throws {
        let tolerance = OnlineProtocol.defaultTolerance
        let edge = 11 + tolerance
        let inTime = OnlineProtocol.evaluate(PeakJudge(), on: [try Self.fall("F01_SA01_R01", [Self.candidate(at: edge)])])
        #expect(inTime.counts.fallsDetected == 1)
        #expect(inTime.strayDetectionsInFalls == 0)
        #expect(abs(inTime.latencies[0] - (edge - 10)) < 1e-9)

        let late = OnlineProtocol.evaluate(PeakJudge(), on: [try Self.fall("F01_SA01_R01", [Self.candidate(at: edge + 0.01)])])
        #expect(late.counts.fallsMissed == 1 && late.counts.fallsDetected == 0)
        #expect(late.strayDetectionsInFalls == 1)
        #expect(late.latencies.isEmpty)
        #expect(late.falseAlarms == 0, "a stray detection in a fall trial is not an ADL false alarm")
    }

    @Test func aDetectionBeforeTheSpanIsStray() throws {
        let missed = try Self.fall("F01_SA01_R01", [Self.candidate(at: 9.99)])
        let found = try Self.fall("F02_SA01_R01", [Self.candidate(at: 10.5)])
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [missed, found])
        #expect(r.counts.fallsMissed == 1)
        #expect(r.strayDetectionsInFalls == 1)
        // Named among the missed falls; a stray detection in a fall trial is no ADL false alarm.
        #expect(r.missedFalls == [missed.name] && r.falseAlarmTrials.isEmpty)
    }

    @Test func latencyIsFromOnsetToTheFirstHitAndStraysStillCount() throws {
        let trial = try Self.fall("F01_SA01_R01", [Self.candidate(at: 4), Self.candidate(at: 10.8), Self.candidate(at: 12.5), Self.candidate(at: 14)])
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [trial], gate: Self.open)
        #expect(r.counts.fallsDetected == 1)
        #expect(r.strayDetectionsInFalls == 2)  // 4 s and 14 s
        #expect(r.latencies.count == 1)
        #expect(abs(r.latencies[0] - 0.8) < 1e-9)
        // With the default gate the 4 s detection holds back everything for 30 s: the fall is missed.
        let gated = OnlineProtocol.evaluate(PeakJudge(), on: [trial])
        #expect(gated.counts.fallsMissed == 1)
        #expect(gated.strayDetectionsInFalls == 1)
    }

    @Test func candidatesUnderTheThresholdAreNotDetections() throws {
        let trial = try Self.fall("F01_SA01_R01", [Self.candidate(at: 10.5, peak: 1.99)])
        #expect(OnlineProtocol.evaluate(PeakJudge(), on: [trial]).counts.fallsMissed == 1)
        #expect(OnlineProtocol.evaluate(PeakJudge(threshold: 1.99), on: [trial]).counts.fallsDetected == 1)
    }

    @Test func aFallWithoutASpanCannotBeDetected() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [try Self.fall("F01_SA01_R01", [Self.candidate(at: 10.5)], span: nil)])
        #expect(r.counts.fallsMissed == 1)
        #expect(r.strayDetectionsInFalls == 1)
    }

    // MARK: ADL

    @Test func adlDetectionsAreFalseAlarmsPerHourOfAdl() throws {
        // Half an hour with three detections (40 s apart, past the gate), half an hour with none,
        // and a candidate under the threshold.
        let busy = try Self.adl("D01_SA01_R01", seconds: 1800, [Self.candidate(at: 100), Self.candidate(at: 140), Self.candidate(at: 180)])
        let quiet = try Self.adl("D02_SA01_R01", seconds: 1800, [Self.candidate(at: 50, peak: 1.5)])
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [busy, quiet])
        #expect(r.falseAlarms == 3)
        #expect(abs(r.adlHours - 1) < 1e-12)
        #expect(abs((r.falseAlarmsPerHour ?? 0) - 3) < 1e-9)
        #expect(r.counts.falseAlarms == 1 && r.counts.adlsCleared == 1)
        #expect(r.counts.falls == 0)
        #expect(r.latencies.isEmpty)
        // The trial with the detections is named once, the quiet one not.
        #expect(r.falseAlarmTrials == [busy.name] && r.missedFalls.isEmpty)
    }

    @Test func theGateHoldsBackDetectionsWithinItsRefractoryPeriodPerTrial() throws {
        let close = try Self.adl("D01_SA01_R01", seconds: 60, [Self.candidate(at: 10), Self.candidate(at: 39.9)])
        #expect(OnlineProtocol.evaluate(PeakJudge(), on: [close]).falseAlarms == 1)
        #expect(OnlineProtocol.evaluate(PeakJudge(), on: [close], gate: Self.open).falseAlarms == 2)
        #expect(OnlineProtocol.detections(in: close, scores: close.candidates.map(PeakJudge().score), threshold: PeakJudge().threshold) == [Self.ns(10)])
        // The gate starts open in every trial.
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [close, close])
        #expect(r.falseAlarms == 2)
    }

    @Test func noAdlMeansNoRate() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: [try Self.fall("F01_SA01_R01", [])])
        #expect(r.falseAlarmsPerHour == nil)
        #expect(r.medianLatency == nil)
    }

    // MARK: Groups and activities

    static func mixedTrials() throws -> [OnlineTrial] {
        [
            try fall("F01_SA01_R01", [candidate(at: 10.2)]),  // young, detected, 0.2 s
            try fall("F01_SA01_R02", [candidate(at: 11.5)]),  // young, detected, 1.5 s
            try fall("F02_SA02_R01", [candidate(at: 20)]),  // young, missed, one stray
            try fall("F02_SE06_R01", [candidate(at: 10.9)]),  // elderly, detected, 0.9 s
            try adl("D01_SA01_R01", seconds: 720, [candidate(at: 5)]),  // young false alarm
            try adl("D01_SE01_R01", seconds: 360, []),  // elderly cleared
            try adl("D07_SE01_R01", seconds: 360, [candidate(at: 5), candidate(at: 50)]),  // elderly, 2 false alarms
        ]
    }

    @Test func resultsAreSplitByAgeGroup() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: try Self.mixedTrials())
        let young = try #require(r.byGroup[.young]), elderly = try #require(r.byGroup[.elderly])
        #expect(young.counts == ConfusionCounts(fallsDetected: 2, fallsMissed: 1, adlsCleared: 0, falseAlarms: 1))
        #expect(elderly.counts == ConfusionCounts(fallsDetected: 1, fallsMissed: 0, adlsCleared: 1, falseAlarms: 1))
        #expect(young.falseAlarms == 1 && elderly.falseAlarms == 2)
        #expect(abs(young.adlHours - 0.2) < 1e-12)
        #expect(abs(elderly.adlHours - 0.2) < 1e-12)
        #expect(abs((young.falseAlarmsPerHour ?? 0) - 5) < 1e-9)
        #expect(abs((elderly.falseAlarmsPerHour ?? 0) - 10) < 1e-9)
        #expect(young.latencies.count == 2 && elderly.latencies.count == 1)
        #expect(abs(young.latencies.reduce(0, +) - 1.7) < 1e-9)
        #expect(abs(elderly.latencies[0] - 0.9) < 1e-9)
        // The whole is the sum of the groups.
        #expect(r.counts.trials == 7)
        #expect(r.falseAlarms == 3)
        #expect(r.strayDetectionsInFalls == 1)
        #expect(abs(r.adlHours - 0.4) < 1e-12)
    }

    @Test func resultsAreSplitBySubject() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: try Self.mixedTrials())
        #expect(r.bySubject.keys.sorted() == ["SA01", "SA02", "SE01", "SE06"])
        #expect(r.bySubject["SA01"]?.counts == ConfusionCounts(fallsDetected: 2, fallsMissed: 0, adlsCleared: 0, falseAlarms: 1))
        #expect(r.bySubject["SA02"]?.counts == ConfusionCounts(fallsDetected: 0, fallsMissed: 1, adlsCleared: 0, falseAlarms: 0))
        #expect(r.bySubject["SE01"]?.counts == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 1, falseAlarms: 1))
        #expect(r.bySubject["SE01"]?.falseAlarms == 2)
        #expect(abs((r.bySubject["SE01"]?.adlHours ?? 0) - 0.2) < 1e-12)
        #expect(r.bySubject["SE06"]?.latencies.count == 1)
        // The subjects add up to the whole.
        var sum = OnlineProtocolResult.GroupResult()
        for g in r.bySubject.values { sum.merge(g) }
        #expect(sum.counts == r.counts && sum.falseAlarms == r.falseAlarms && sum.latencies.sorted() == r.latencies.sorted())
    }

    @Test func resultsAreCountedPerActivity() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: try Self.mixedTrials())
        #expect(r.perActivity["F01"] == ConfusionCounts(fallsDetected: 2, fallsMissed: 0, adlsCleared: 0, falseAlarms: 0))
        #expect(r.perActivity["F02"] == ConfusionCounts(fallsDetected: 1, fallsMissed: 1, adlsCleared: 0, falseAlarms: 0))
        #expect(r.perActivity["D01"] == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 1, falseAlarms: 1))
        #expect(r.perActivity["D07"] == ConfusionCounts(fallsDetected: 0, fallsMissed: 0, adlsCleared: 0, falseAlarms: 1))
        #expect(Set(r.perActivity.keys) == ["F01", "F02", "D01", "D07"])
    }

    @Test func medianAndP95LatencyInterpolate() throws {
        let r = OnlineProtocol.evaluate(PeakJudge(), on: try Self.mixedTrials())
        // Latencies 0.2, 1.5, 0.9 → sorted 0.2, 0.9, 1.5: median 0.9; p95 at rank 1.9: 0.9 + 0.9·0.6.
        #expect(abs((r.medianLatency ?? 0) - 0.9) < 1e-9)
        #expect(abs((r.p95Latency ?? 0) - (0.9 + 0.9 * 0.6)) < 1e-9)
    }

    // MARK: Training rows

    @Test func trainingRowsLabelOnlyCandidatesInAFallWindow() throws {
        let fall = try Self.fall("F01_SA01_R01", [Self.candidate(at: 4, peak: 2.1), Self.candidate(at: 10.5, peak: 2.2), Self.candidate(at: 13.5, peak: 2.3)])
        let adl = try Self.adl("D01_SA01_R01", seconds: 60, [Self.candidate(at: 10.5, peak: 2.4)])
        let data = OnlineProtocol.trainingRows([fall, adl])
        #expect(data.labels == [false, true, false, false])
        #expect(data.rows.map { $0[0] } == [2.1, 2.2, 2.3, 2.4].map { log(Float($0)) })
        // A wider tolerance takes in the 13.5 s candidate.
        #expect(OnlineProtocol.trainingRows([fall, adl], tolerance: 2.5).labels == [false, true, true, false])
    }

    // MARK: Recovery check

    /// `trial` with the candidate at `index` recovered at `seconds` under grid setting `setting`.
    static func recovered(_ trial: OnlineTrial, _ index: Int, at seconds: Double, setting: Int) -> OnlineTrial {
        var trial = trial
        trial.recoveries[index][setting] = ns(seconds)
        return trial
    }

    @Test func aDetectionWhoseWearerGotUpIsWithdrawnUnderThatSettingOnly() throws {
        let adl = Self.recovered(try Self.adl("D13_SA01_R01", seconds: 25, [Self.candidate(at: 5)]), 0, at: 9, setting: 1)
        let fall = Self.recovered(try Self.fall("F11_SA01_R01", [Self.candidate(at: 10.6)]), 0, at: 13, setting: 1)
        let scores = [[Float(3)], [Float(3)]]
        let withdrawn = OnlineProtocol.evaluate(detector: "r", trials: [adl, fall], scores: scores, threshold: 2, recovery: 1)
        #expect(withdrawn.falseAlarms == 0)
        #expect(withdrawn.counts.fallsMissed == 1, "a faller who sat up again is withdrawn too: the price of the check")
        let otherSetting = OnlineProtocol.evaluate(detector: "r", trials: [adl, fall], scores: scores, threshold: 2, recovery: 2)
        #expect(otherSetting.falseAlarms == 1)
        #expect(otherSetting.counts.fallsDetected == 1)
        let without = OnlineProtocol.evaluate(detector: "r", trials: [adl, fall], scores: scores, threshold: 2)
        #expect(without.falseAlarms == 1 && without.counts.fallsDetected == 1)
        #expect(abs(without.latencies[0] - 0.6) < 1e-9)
        #expect(otherSetting.latencies == without.latencies, "a detection that stands keeps its time")
    }

    @Test func afterARecoveryTheGateOpensAgain() throws {
        // 5 s: withdrawn (up again at 9 s); 7 s: held back, the same event; 12 s: a new one.
        let trial = Self.recovered(
            try Self.adl("D13_SA01_R01", seconds: 25, [Self.candidate(at: 5), Self.candidate(at: 7), Self.candidate(at: 12)]), 0, at: 9, setting: 0)
        let times = OnlineProtocol.detections(in: trial, scores: [3, 3, 3], threshold: 2, recovery: 0)
        #expect(times == [Self.ns(12)])
        #expect(OnlineProtocol.detections(in: trial, scores: [3, 3, 3], threshold: 2) == [Self.ns(5)])
    }

    @Test func aConfirmedDetectionKeepsWhenItWasDecided() throws {
        // Decided at 10.6 s, confirmed still at 13 s: latency 3 s to the alert, 0.6 s to the decision.
        var trial = try Self.fall("F01_SA01_R01", [Self.candidate(at: 10.6)])
        trial.confirmations[0] = Self.ns(13)
        let r = OnlineProtocol.evaluate(detector: "s", trials: [trial], scores: [[3]], threshold: 2, confirmed: true)
        #expect(r.counts.fallsDetected == 1)
        #expect(abs((r.medianLatency ?? 0) - 3) < 1e-9)
        #expect(abs((r.medianDetectionLatency ?? 0) - 0.6) < 1e-9)
        let plain = OnlineProtocol.evaluate(detector: "p", trials: [trial], scores: [[3]], threshold: 2)
        #expect(plain.detectionLatencies == plain.latencies)
        var merged = r
        merged.merge(plain)
        #expect(merged.detectionLatencies.count == 2)
    }
}


import Testing

@testable import FallDetect

/// Both fall detectors end to end on the project's synthetic recordings (IMU → frames → tracker →
/// judge → gate), and the detector's own handling of candidates.
@Suite struct FallDetectorTests {
    static let seeds = UInt64(1)...8
    static let negatives: [SyntheticScenario] = [.walking, .sittingDown, .lyingDown]

    static func settings(_ r: Recording) -> FallCandidateSettings {
        FallCandidateSettings(sampleRate: Float(r.info.sensor.sampleRate))
    }

    /// Every detection of `judge` over the recording, through a fresh builder and detector.
    static func detect(_ r: Recording, judge: any FallJudge) throws -> [DetectionEvent] {
        var builder = MotionFrameBuilder(sampleRate: Float(r.info.sensor.sampleRate), accelerometerRange: r.info.sensor.accelerometerRange)
        var detector = try FallDetector(judge: judge, candidates: settings(r))
        var events: [DetectionEvent] = []
        for s in r.samples {
            if let e = detector.push(builder.push(s)) { events.append(e) }
        }
        return events
    }

    /// Every candidate the tracker finds (for reporting numbers when an expectation fails).
    static func candidates(_ r: Recording) throws -> [FallCandidate] {
        var builder = MotionFrameBuilder(sampleRate: Float(r.info.sensor.sampleRate), accelerometerRange: r.info.sensor.accelerometerRange)
        var tracker = try FallCandidateTracker(settings: settings(r))
        var out: [FallCandidate] = []
        for s in r.samples { if let c = tracker.push(builder.push(s)) { out.append(c) } }
        return out
    }

    static func describe(_ c: FallCandidate) -> String {
        "peak \(c.peakAcceleration) g, min \(c.minimumAccelerationBefore) g, tilt \(c.tiltBefore)→\(c.tiltAfter)° (max \(c.maximumTiltAfter)°), "
            + "low \(c.lowAccelerationSeconds) s, activity \(c.activityBefore) g, impact at \(Double(c.impactNanoseconds) / 1e9) s"
    }

    /// The labelled fall: from the alert label (1) to the next background label (0).
    static func fallLabels(_ r: Recording) -> (start: Int64, end: Int64)? {
        let labels = r.events.filter { $0.kind == .label }
        guard let start = labels.first(where: { $0.value == 1 }),
            let end = labels.first(where: { $0.value == 0 && $0.timestampNanoseconds > start.timestampNanoseconds })
        else { return nil }
        return (start.timestampNanoseconds, end.timestampNanoseconds)
    }

    static func checkFallEvent(_ e: DetectionEvent, _ r: Recording, detector: String, seed: UInt64, settings: FallCandidateSettings) throws {
        #expect(e.kind == .fall)
        #expect(e.detector == detector)
        #expect(e.confidence > 0.5 && e.confidence <= 1, "seed \(seed): confidence \(e.confidence)")
        #expect(e.phases.map(\.name) == [.falling, .impact, .postureChange], "seed \(seed)")
        let falling = try #require(e.phase(.falling)), impact = try #require(e.phase(.impact))
        let posture = try #require(e.phase(.postureChange))
        #expect(falling < impact && impact < posture, "seed \(seed): \(falling) \(impact) \(posture)")
        #expect(posture == e.timestampNanoseconds)
        // The decision comes decisionDelay after the impact, counted in samples.
        let delaySamples = Int64((settings.decisionDelay * settings.sampleRate).rounded())
        #expect(posture - impact == delaySamples * r.info.sensor.samplePeriodNanoseconds, "seed \(seed)")
        let truth = try #require(Self.fallLabels(r))
        #expect(impact >= truth.start && impact <= truth.end, "seed \(seed): impact \(impact) outside \(truth)")
        #expect(impact - falling <= 1_500_000_000, "seed \(seed): the falling phase is looked for in the 1.5 s before the impact")
        // The evidence is filled in and says what the scenario acted out.
        let ev = e.evidence
        #expect((ev.peakAcceleration ?? 0) >= 3, "seed \(seed): \(ev)")
        #expect((ev.minimumAcceleration ?? 1) < settings.freeFallThreshold, "seed \(seed)")
        #expect((ev.freeFallSeconds ?? 0) > 0, "seed \(seed)")
        #expect((ev.verticalVelocity ?? 0) < 0, "seed \(seed)")
        #expect((ev.peakAngularRate ?? 0) > 50, "seed \(seed)")
        #expect((ev.tiltDegrees ?? 0) > 60, "seed \(seed)")
        #expect((ev.tiltChangeDegrees ?? 0) > 45, "seed \(seed)")
    }

    // MARK: Synthetic recordings

    /// Both judges, by name.
    static let judges = ["multiphase", "learned"]

    static func judge(_ name: String) throws -> any FallJudge {
        name == "learned" ? try LearnedFallJudge.shipped() : try MultiphaseFallJudge()
    }

    @Test(arguments: judges)
    func detectsEveryForwardFallOnce(_ name: String) throws {
        let judge = try Self.judge(name)
        for seed in Self.seeds {
            let r = SyntheticGenerator(seed: seed).generate(.forwardFall)
            let events = try Self.detect(r, judge: judge)
            guard events.count == 1 else {
                let found = try Self.candidates(r).map(Self.describe)
                Issue.record("\(name) seed \(seed): \(events.count) detections \(events.map(\.summary)); candidates \(found)")
                continue
            }
            try Self.checkFallEvent(events[0], r, detector: name, seed: seed, settings: Self.settings(r))
        }
    }

    @Test(arguments: judges, negatives)
    func staysQuietOnEverydayScenarios(_ name: String, _ scenario: SyntheticScenario) throws {
        let judge = try Self.judge(name)
        var judged = 0
        for seed in Self.seeds {
            let r = SyntheticGenerator(seed: seed).generate(scenario)
            let events = try Self.detect(r, judge: judge)
            let found = try Self.candidates(r)
            judged += found.count
            if !events.isEmpty {
                Issue.record("\(name) \(scenario) seed \(seed): \(events.map(\.summary)); candidates \(found.map(Self.describe))")
            }
        }
        // Not vacuous: the tracker did hand the judge impacts to turn down.
        #expect(judged > 0, "\(scenario): no candidate in any seed")
    }

    // MARK: Candidates to events

    static func candidate(decisionSeconds: Int64, peak: Float = 4) -> FallCandidate {
        let d = decisionSeconds * 1_000_000_000
        return FallCandidate(
            peakAcceleration: peak, saturated: false, minimumAccelerationBefore: 0.3, lowAccelerationSeconds: 0.25, tiltBefore: 5,
            tiltAfter: 85, maximumTiltAfter: 88, tiltAtDecision: 86, minimumVerticalVelocity: -2, peakAngularRate: 250, motionAfter: 0.05,
            activityBefore: 0.05, fallingStartNanoseconds: d - 1_000_000_000, impactNanoseconds: d - 600_000_000, decisionNanoseconds: d)
    }

    @Test func theGateAdmitsOneDetectionPerRefractoryPeriod() throws {
        var detector = try FallDetector(judge: MultiphaseFallJudge(), gate: DetectionGate(refractorySeconds: 30))
        // A candidate the judge turns down (1.5 g at 200 s) does not close the gate.
        let candidates = [(100, 4), (110, 4), (129, 4), (130, 4), (200, 1.5), (201, 4)].map { Self.candidate(decisionSeconds: $0, peak: Float($1)) }
        let passed = candidates.map { detector.judge($0) != nil }
        #expect(passed == [true, false, false, true, false, true])
        detector.reset()
        let afterReset = detector.judge(Self.candidate(decisionSeconds: 202))
        #expect(afterReset != nil)
    }

    @Test func theEventCarriesTheCandidateAndTheJudgesConfidence() throws {
        let judge = try MultiphaseFallJudge()
        var detector = try FallDetector(judge: judge)
        let c = Self.candidate(decisionSeconds: 50, peak: 3)
        let judged = detector.judge(c)
        let e = try #require(judged)
        #expect(e.timestampNanoseconds == c.decisionNanoseconds)
        #expect(e.phases == c.phases)
        #expect(e.evidence == c.evidence)
        #expect(e.confidence == judge.confidence(score: judge.score(c)))
        #expect(detector.name == "multiphase")
    }

    @Test func twoFallsInOneRecordingWithinTheRefractoryPeriodGiveOneDetection() throws {
        // Hand-made frames at 100 Hz: two falls from standing 5 s apart, getting up in between.
        func frames() -> [MotionFrame] {
            var out: [MotionFrame] = []
            for i in 0..<1500 {
                let sinceFall = i >= 900 ? i - 900 : (i >= 400 ? i - 400 : -1)
                var m: Float = 1, tilt: Float = 5
                if (370..<400).contains(i) || (870..<900).contains(i) { m = 0.2 }
                if sinceFall == 0 { m = 4 }
                if sinceFall > 0, i < 700 || i >= 900 { tilt = 85 }
                out.append(MotionFrame(
                    timestampNanoseconds: Int64(i) * 10_000_000, samplePeriod: 0.01, acceleration: SIMD3(0, 0, m),
                    angularRateMagnitude: 0, tiltDegrees: tilt, verticalAcceleration: 0, verticalVelocity: 0, saturated: false))
            }
            return out
        }
        func count(refractory: Double) throws -> (candidates: Int, events: Int) {
            let s = FallCandidateSettings(sampleRate: 100)
            var tracker = try FallCandidateTracker(settings: s)
            var detector = try FallDetector(judge: MultiphaseFallJudge(), candidates: s, gate: DetectionGate(refractorySeconds: refractory))
            var c = 0, e = 0
            for f in frames() {
                if tracker.push(f) != nil { c += 1 }
                if detector.push(f) != nil { e += 1 }
            }
            return (c, e)
        }
        let gated = try count(refractory: 30)
        #expect(gated.candidates == 2)
        #expect(gated.events == 1)
        // With a 4 s refractory period both falls come through: the gate was what held one back.
        #expect(try count(refractory: 4).events == 2)
    }
}

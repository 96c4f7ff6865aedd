import Testing

@testable import FallDetect

/// The crash detector on synthetic vehicle traces (the only kind that exists: no public crash
/// recordings) and on hand-built sequences, every frame made by the real `MotionFrameBuilder`.
@Suite struct CrashDetectorTests {
    static let seeds = UInt64(1)...20
    static let crashes = SyntheticVehicleScenario.allCases.filter(\.containsCrash)
    static let everyday = SyntheticVehicleScenario.allCases.filter { !$0.containsCrash }

    // MARK: Replay

    /// Frames and fixes in time order through a fresh builder and detector.
    static func detect(
        _ r: Recording, _ parameters: CrashDetectorParameters, fixes: [GNSSFix]? = nil
    ) throws -> [DetectionEvent] {
        var builder = MotionFrameBuilder(
            sampleRate: Float(r.info.sensor.sampleRate), accelerometerRange: r.info.sensor.accelerometerRange)
        var detector = try CrashDetector(parameters: parameters)
        let fixes = fixes ?? r.fixes
        var next = 0
        var events: [DetectionEvent] = []
        for sample in r.samples {
            while next < fixes.count, fixes[next].timestampNanoseconds <= sample.timestampNanoseconds {
                if let e = detector.push(fix: fixes[next]) { events.append(e) }
                next += 1
            }
            if let e = detector.push(builder.push(sample)) { events.append(e) }
        }
        return events
    }

    /// Ground truth: when the crash starts (the first label above background) and when its main
    /// impact ends (the next background label).
    static func crashTimes(_ r: Recording) -> (start: Int64, impactEnd: Int64)? {
        let labels = r.events.filter { $0.kind == .label }
        guard let start = labels.first(where: { $0.value > 0 }) else { return nil }
        let end = labels.first { $0.value == 0 && $0.timestampNanoseconds > start.timestampNanoseconds }
        return (start.timestampNanoseconds, end?.timestampNanoseconds ?? start.timestampNanoseconds)
    }

    static func seconds(_ ns: Int64) -> Double { Double(ns) / 1e9 }

    // MARK: Synthetic traces

    @Test(arguments: crashes)
    func everyCrashIsConfirmedWithinTheWindow(_ scenario: SyntheticVehicleScenario) throws {
        let p = scenario.preset
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            let events = try Self.detect(r, p)
            let truth = try #require(Self.crashTimes(r))
            try #require(events.count == 1, "\(scenario) seed \(seed): \(events.map(\.summary))")
            let e = events[0]
            #expect(e.kind == .crash)
            #expect(e.detector == CrashDetector.name)
            #expect(e.phases.map(\.name) == [.armed, .impact, .stopped], "seed \(seed)")
            let armed = try #require(e.phase(.armed)), impact = try #require(e.phase(.impact))
            let stopped = try #require(e.phase(.stopped))
            #expect(armed < truth.start)
            #expect(impact >= truth.start && Self.seconds(impact - truth.impactEnd) <= 3, "seed \(seed)")
            #expect(stopped == e.timestampNanoseconds && stopped > impact)
            #expect(Self.seconds(e.timestampNanoseconds - truth.start) <= p.confirmationWindowSeconds, "seed \(seed)")
            #expect(e.confidence >= 0.5 && e.confidence <= 1)

            let evidence = e.evidence
            #expect((evidence.peakAcceleration ?? 0) >= p.impactThreshold)
            // The speed before is what the receiver reported last before the impact.
            let reported = try #require(r.fixes.last { $0.timestampNanoseconds <= impact }?.speed)
            let before = try #require(evidence.speedBefore)
            #expect(before >= p.armingSpeed && abs(before - reported) <= 0.15 * reported, "seed \(seed)")
            let after = try #require(evidence.speedAfter)
            #expect(after <= p.stopSpeed || after <= before * (1 - p.speedDropFraction))
            #expect((evidence.peakAngularRate ?? 0) > 50)
            #expect(evidence.tiltDegrees != nil)
            switch scenario {
            case .carCrash: #expect(evidence.saturated, "a 20–60 g crash clips a ±16 g part")
            case .motorcycleCrash: #expect((evidence.peakAngularRate ?? 0) >= 250, "the rider tumbles")
            default: break
            }
        }
    }

    @Test(arguments: everyday)
    func everydayEventsNeverAlarm(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            for p in [scenario.preset, CrashDetectorParameters()] {
                let events = try Self.detect(r, p)
                #expect(events.isEmpty, "\(scenario) seed \(seed): \(events.map(\.summary))")
            }
        }
    }

    /// The pothole negatives do reach the confirmation stage (so it is the keeps-moving cancel, not
    /// the threshold, that keeps them quiet), and every confirmation is closed again.
    @Test func potholesStartConfirmationsThatGetCancelled() throws {
        var started = 0
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.pothole)
            var builder = MotionFrameBuilder(sampleRate: 100)
            var detector = try CrashDetector(parameters: .cycling)  // 4 g: every pothole counts as an impact
            var next = 0
            for sample in r.samples {
                while next < r.fixes.count, r.fixes[next].timestampNanoseconds <= sample.timestampNanoseconds {
                    #expect(detector.push(fix: r.fixes[next]) == nil)
                    next += 1
                }
                let was = detector.isConfirming
                #expect(detector.push(builder.push(sample)) == nil)
                if !was && detector.isConfirming { started += 1 }
            }
            #expect(!detector.isConfirming, "seed \(seed): the confirmation was never closed")
        }
        #expect(started == Self.seeds.count)
    }

    // MARK: Saturation

    /// With the threshold above anything a clipped ±16 g part can show (√3 × 16 g = 27.7 g with
    /// every axis clipped) no reading reaches it; the clipped duration and impulse still recognise
    /// a 20–60 g car crash.
    @Test func clippedCrashIsDetectedAboveFullScale() throws {
        var p = CrashDetectorParameters.car
        p.impactThreshold = 30
        var blind = p
        blind.saturatedImpactSeconds = 10
        blind.impactDeltaV = 1000
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.carCrash)
            let events = try Self.detect(r, p)
            try #require(events.count == 1, "seed \(seed)")
            #expect(events[0].evidence.saturated)
            #expect((events[0].evidence.peakAcceleration ?? 0) >= 16)
            #expect(try Self.detect(r, blind).isEmpty, "seed \(seed): without the saturation rule nothing reaches 30 g")
        }
    }

    @Test func saturationNeedsDurationOrImpulse() throws {
        var p = CrashDetectorParameters()
        p.impactThreshold = 20
        // Four clipped samples (40 ms): a crash pulse.
        var bench = try CrashBench(p)
        bench.ride(10, speed: 10)
        bench.frames(0.04) { _ in SIMD3(0, 0, 16) }
        bench.ride(3, speed: 0)
        #expect(bench.events.count == 1)
        #expect(bench.events.first?.evidence.saturated == true)
        // One clipped sample (10 ms, 1.5 m/s): a knock on the device.
        bench = try CrashBench(p)
        bench.ride(10, speed: 10)
        bench.frames(0.01) { _ in SIMD3(0, 0, 16) }
        bench.ride(3, speed: 0)
        #expect(bench.events.isEmpty)
        // 15 g unclipped for 50 ms stays under a 20 g threshold.
        bench = try CrashBench(p)
        bench.ride(10, speed: 10)
        bench.frames(0.05) { _ in SIMD3(0, 0, 15) }
        bench.ride(3, speed: 0)
        #expect(bench.events.isEmpty)
    }

    // MARK: GNSS loss

    @Test(arguments: crashes)
    func withoutAnyFixStillnessConfirmsWithLowerConfidence(_ scenario: SyntheticVehicleScenario) throws {
        let p = scenario.preset
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            let truth = try #require(Self.crashTimes(r))
            let events = try Self.detect(r, p, fixes: [])
            try #require(events.count == 1, "seed \(seed)")
            let e = events[0]
            #expect(e.phases.map(\.name) == [.impact, .resting])
            #expect(e.confidence > 0 && e.confidence <= p.fallbackConfidence)
            #expect((e.evidence.stillSeconds ?? 0) >= Float(p.fallbackStillSeconds))
            #expect(e.evidence.speedBefore == nil && e.evidence.speedAfter == nil)
            #expect((e.evidence.tiltChangeDegrees ?? 0) >= p.fallbackTiltChangeDegrees)
            #expect(Self.seconds(e.timestampNanoseconds - truth.start) <= p.fallbackWindowSeconds)
        }
    }

    @Test(arguments: crashes)
    func gnssLostAtTheCrashFallsBackToStillness(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            let truth = try #require(Self.crashTimes(r))
            let before = r.fixes.filter { $0.timestampNanoseconds < truth.start }
            let events = try Self.detect(r, scenario.preset, fixes: before)
            try #require(events.count == 1, "seed \(seed)")
            #expect(events[0].phases.map(\.name) == [.armed, .impact, .resting])
            #expect(events[0].confidence <= scenario.preset.fallbackConfidence)
            #expect(events[0].evidence.speedBefore != nil)
        }
    }

    /// Riding on through a bump while GNSS is missing is not still, and a car occupant after a bump
    /// has not changed posture: neither confirms.
    @Test(arguments: [SyntheticVehicleScenario.pothole, .speedBump, .gnssOutage, .hardBraking])
    func withoutAnyFixEverydayEventsStayQuiet(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            #expect(try Self.detect(r, scenario.preset, fixes: []).isEmpty, "seed \(seed)")
        }
    }

    /// The fallback's known limit, stated: without a speed, a dropped device that stays on the floor
    /// looks like a crash. It says so by its low confidence; the alert countdown is the remedy.
    @Test func withoutAnyFixADroppedDeviceLooksLikeACrash() throws {
        let p = SyntheticVehicleScenario.deviceDropped.preset
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.deviceDropped)
            #expect(try Self.detect(r, p).isEmpty)
            let events = try Self.detect(r, p, fixes: [])
            #expect(events.count == 1 && events.allSatisfy { $0.confidence <= p.fallbackConfidence })
        }
    }

    // MARK: The rules, one at a time

    @Test func armedImpactThenStopConfirms() throws {
        let p = CrashDetectorParameters()
        var bench = try CrashBench(p)
        bench.ride(10, speed: 10)
        let impactAt = bench.nanoseconds
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(3, speed: 0)
        try #require(bench.events.count == 1)
        let e = bench.events[0]
        #expect(e.phases.map(\.name) == [.armed, .impact, .stopped])
        #expect(e.phase(.armed) == 350_000_000)  // the first fast fix
        let impact = try #require(e.phase(.impact))
        #expect(impact >= impactAt && impact < impactAt + 30_000_000)
        #expect(e.phase(.stopped) == impactAt + 350_000_000)  // the next fix
        #expect(e.evidence.speedBefore == 10 && e.evidence.speedAfter == 0)
        #expect(abs((e.evidence.peakAcceleration ?? 0) - 8) < 0.01)
        #expect(!e.evidence.saturated)
        // Impact twice the threshold (0.5), 10 m/s is 1.8× arming (0.8), a full stop (1).
        let expected: Float = 0.5 + 0.5 * (0.5 + Float(10 / p.armingSpeed - 1) + 1) / 3
        #expect(abs(e.confidence - expected) < 1e-4)
    }

    @Test func slowImpactIsNotACrash() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 3)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(3, speed: 0)
        #expect(bench.events.isEmpty)
    }

    @Test(arguments: [(3.0, true), (6.5, false)])
    func armingHoldsForItsTime(secondsAfterLastFastFix: Double, confirms: Bool) throws {
        var bench = try CrashBench(CrashDetectorParameters())  // hold 5 s
        bench.ride(10, speed: 10)  // last fast fix at 9.35 s
        bench.ride(secondsAfterLastFastFix - 0.65, speed: 4)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(3, speed: 0)
        #expect(bench.events.count == (confirms ? 1 : 0))
    }

    @Test func keepsMovingCancelsSoALaterStopDoesNotConfirm() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 10)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(3, speed: 10)  // a pothole: riding on
        bench.ride(5, speed: 0)  // then a red light, 3 s later, inside the window
        #expect(bench.events.isEmpty)
    }

    @Test func aLaggingFixDoesNotCancel() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 10)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(1, speed: 10)  // 0.35 s after the impact: the receiver still says 10 m/s
        bench.ride(2, speed: 0)
        #expect(bench.events.count == 1)
    }

    @Test func slidingDoesNotCancel() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 25)
        bench.frames(0.04) { _ in SIMD3(0, 0, 12) }
        // 5 m/s² on asphalt: still above the arming speed after the lag, but falling.
        for speed in [22.0, 17.0, 12.0, 7.0, 2.0, 0.0] { bench.ride(1, speed: speed) }
        #expect(bench.events.count == 1)
        #expect(bench.events.first?.evidence.speedAfter == 7)  // 7 of 25 m/s: the 70 % drop
    }

    @Test func dropRuleConfirmsAboveTheStopSpeed() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 20)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(2, speed: 5)  // 75 % down, still above arming speed and stop speed
        #expect(bench.events.count == 1)
        #expect(bench.events.first?.evidence.speedAfter == 5)
    }

    @Test func aStopAfterTheWindowDoesNotConfirm() throws {
        var bench = try CrashBench(CrashDetectorParameters())  // window 10 s
        bench.ride(10, speed: 10)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(11, speed: 4)  // slower, but neither a stop nor a 70 % drop
        bench.ride(3, speed: 0)
        #expect(bench.events.isEmpty)
    }

    @Test(arguments: [true, false])
    func steadyRidingCancels(riding: Bool) throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 10)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        // 5 m/s decides nothing: under arming speed, over stop speed, not a 70 % drop.
        bench.ride(6, speed: 5, vibration: riding ? 0.15 : 0)
        bench.ride(2, speed: 0)
        #expect(bench.events.count == (riding ? 0 : 1))
    }

    @Test func afterACrashTheDetectorMustBeArmedAgain() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: 10)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }
        bench.ride(2, speed: 0)
        #expect(bench.events.count == 1)
        bench.frames(0.03) { _ in SIMD3(0, 0, 8) }  // the bike falls over, within the old hold
        bench.ride(3, speed: 0)
        #expect(bench.events.count == 1)
    }

    @Test(arguments: [(true, true), (false, false)])
    func noGNSSImpactThenLyingStill(lying: Bool, confirms: Bool) throws {
        let p = CrashDetectorParameters()
        var bench = try CrashBench(p)
        bench.ride(10, speed: nil, vibration: 0.15)
        bench.frames(0.05) { _ in SIMD3(0, 0, 10) }
        // Lying on the side (gravity along y) or sitting up as before.
        bench.frames(14) { _ in lying ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1) }
        #expect(bench.events.count == (confirms ? 1 : 0))
        if let e = bench.events.first {
            #expect(e.phases.map(\.name) == [.impact, .resting])
            #expect(e.confidence <= p.fallbackConfidence)
            #expect((e.evidence.tiltChangeDegrees ?? 0) > 80)
        }
    }

    @Test func noGNSSImpactThenRidingOnDoesNotConfirm() throws {
        var bench = try CrashBench(CrashDetectorParameters())
        bench.ride(10, speed: nil, vibration: 0.15)
        bench.frames(0.05) { _ in SIMD3(0, 0, 10) }
        bench.ride(40, speed: nil, vibration: 0.15)
        #expect(bench.events.isEmpty)
    }

    // MARK: Parameters

    static let invalid: [(String, @Sendable (inout CrashDetectorParameters) -> Void)] = [
        ("impactThreshold", { $0.impactThreshold = 0.5 }),
        ("impactThreshold", { $0.impactThreshold = .nan }),
        ("accelerometerFullScale", { $0.accelerometerFullScale = 0 }),
        ("saturatedImpactSeconds", { $0.saturatedImpactSeconds = -1 }),
        ("impactDeltaV", { $0.impactDeltaV = 0 }),
        ("armingSpeed", { $0.armingSpeed = 0 }),
        ("armingHoldSeconds", { $0.armingHoldSeconds = -1 }),
        ("gnssTimeoutSeconds", { $0.gnssTimeoutSeconds = .infinity }),
        ("confirmationWindowSeconds", { $0.confirmationWindowSeconds = 0 }),
        ("stopSpeed", { $0.stopSpeed = 10 }),
        ("speedDropFraction", { $0.speedDropFraction = 1.5 }),
        ("speedLagSeconds", { $0.speedLagSeconds = 20 }),
        ("slidingDeceleration", { $0.slidingDeceleration = 0 }),
        ("steadyMotionSeconds", { $0.steadyMotionSeconds = 0 }),
        ("steadyTiltToleranceDegrees", { $0.steadyTiltToleranceDegrees = -5 }),
        ("steadyMaximumAngularRate", { $0.steadyMaximumAngularRate = 0 }),
        ("steadyMinimumActivity", { $0.steadyMinimumActivity = -0.1 }),
        ("fallbackStillSeconds", { $0.fallbackStillSeconds = 0 }),
        ("fallbackTiltChangeDegrees", { $0.fallbackTiltChangeDegrees = 200 }),
        ("fallbackWindowSeconds", { $0.fallbackWindowSeconds = 5 }),
        ("stillAcceleration", { $0.stillAcceleration = 0 }),
        ("stillAngularRate", { $0.stillAngularRate = 0 }),
        ("motionSmoothingSeconds", { $0.motionSmoothingSeconds = 0 }),
        ("fallbackConfidence", { $0.fallbackConfidence = 1.2 }),
    ]

    @Test(arguments: invalid.indices)
    func invalidParametersNameTheField(_ index: Int) {
        let (field, spoil) = Self.invalid[index]
        var p = CrashDetectorParameters()
        spoil(&p)
        #expect(throws: FallDetectError.self) { try p.validate() }
        do {
            _ = try CrashDetector(parameters: p)
            Issue.record("\(field): accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.field == field)
        }
    }

    @Test func defaultsAndPresetsAreValidAndDiffer() throws {
        let all = [CrashDetectorParameters(), .cycling, .motorcycling, .car]
        for p in all { try p.validate() }
        #expect(CrashDetectorParameters().impactThreshold == 4)
        #expect(abs(CrashDetectorParameters().armingSpeed * 3.6 - 20) < 1e-9)
        #expect(Set([CrashDetectorParameters.cycling, .motorcycling, .car].map(\.armingSpeed)).count == 3)
        #expect(Set([CrashDetectorParameters.cycling, .motorcycling, .car].map(\.impactThreshold)).count >= 2)
    }

    // MARK: Cost

    /// 10^5 samples with fixes, impacts that start confirmations and cancels: no allocation.
    @Test func perSampleWorkAllocatesNothing() throws {
        #if canImport(Glibc)
        var builder = MotionFrameBuilder(sampleRate: 100)
        var detector = try CrashDetector(parameters: CrashDetectorParameters())
        var rng = SplitMix64(seed: 3)
        var emitted = 0
        func step(_ i: Int) {
            let t = Int64(i) * 10_000_000
            if i % 100 == 35 {
                let fix = GNSSFix(timestampNanoseconds: t, mode: .threeD, latitude: 47, longitude: 8, speed: 10)
                if detector.push(fix: fix) != nil { emitted += 1 }
            }
            // A pothole every 20 s, riding on.
            let jolt: Float = i % 2000 == 1000 ? 7 : 0
            let a = SIMD3<Float>(0, 0, 1 + jolt) + 0.1 * SIMD3<Float>(Float(rng.uniform()) - 0.5, 0, Float(rng.uniform()) - 0.5)
            let frame = builder.push(IMUSample(timestampNanoseconds: t, acceleration: a))
            if detector.push(frame) != nil { emitted += 1 }
        }
        for i in 0..<3000 { step(i) }
        let allocations = MallocCounter.count {
            for i in 3000..<103_000 { step(i) }
        }
        #expect(allocations == 0, "\(allocations) allocations in 10^5 samples")
        #expect(emitted == 0)
        #endif
    }
}

/// Frames through the real `MotionFrameBuilder` and 1 Hz fixes (0.35 s after each whole second)
/// into a detector, collecting its events.
struct CrashBench {
    var builder = MotionFrameBuilder(sampleRate: 100)
    var detector: CrashDetector
    var events: [DetectionEvent] = []
    var sample = 0
    var rng = SplitMix64(seed: 11)

    init(_ parameters: CrashDetectorParameters) throws {
        detector = try CrashDetector(parameters: parameters)
    }

    var nanoseconds: Int64 { Int64(sample) * 10_000_000 }

    /// `seconds` of samples with acceleration `a(i)` (g, i counts from 0); fixes with `speed`
    /// (m/s) arrive at x.35 s; nil speed: no fixes at all.
    mutating func frames(_ seconds: Double, speed: Double? = nil, _ a: (Int) -> SIMD3<Float>) {
        let count = Int((seconds * 100).rounded())
        for i in 0..<count {
            if let speed, sample % 100 == 35 {
                let fix = GNSSFix(
                    timestampNanoseconds: nanoseconds, mode: .threeD, latitude: 47.37, longitude: 8.54, speed: speed)
                if let e = detector.push(fix: fix) { events.append(e) }
            }
            let frame = builder.push(IMUSample(timestampNanoseconds: nanoseconds, acceleration: a(i)))
            if let e = detector.push(frame) { events.append(e) }
            sample += 1
        }
    }

    /// Upright with road vibration of about `vibration` g peak to peak.
    mutating func ride(_ seconds: Double, speed: Double?, vibration: Float = 0.15) {
        var rng = self.rng
        frames(seconds, speed: speed) { _ in
            SIMD3(0, 0, 1) + vibration * SIMD3(
                Float(rng.uniform()) - 0.5, Float(rng.uniform()) - 0.5, 2 * (Float(rng.uniform()) - 0.5))
        }
        self.rng = rng
    }
}

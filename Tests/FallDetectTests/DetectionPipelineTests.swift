import Testing

@testable import FallDetect

@Suite struct DetectionPipelineTests {
    /// Every detection a profile's pipeline makes over a recording, fixes interleaved by time.
    static func detections(_ recording: Recording, profile: DetectionProfile, fallModel: FallModelFile? = nil) throws -> [DetectionEvent] {
        var pipeline = try DetectionPipeline(
            profile: profile, sampleRate: Float(recording.info.sensor.sampleRate), accelerometerRange: recording.info.sensor.accelerometerRange,
            fallModel: fallModel)
        var events: [DetectionEvent] = []
        var nextFix = 0
        for sample in recording.samples {
            while nextFix < recording.fixes.count, recording.fixes[nextFix].timestampNanoseconds <= sample.timestampNanoseconds {
                events += pipeline.push(fix: recording.fixes[nextFix])
                nextFix += 1
            }
            events += pipeline.push(sample)
        }
        while nextFix < recording.fixes.count {
            events += pipeline.push(fix: recording.fixes[nextFix])
            nextFix += 1
        }
        return events
    }

    /// With `auto` axes, a start while the device lay on a table took the table's "up" as a
    /// provisional estimate, and a wearer who then put it on and stood kept a frame 90° off
    /// until they walked. Once the wear monitor finds the device off, that estimate is
    /// forgotten, none is taken while it lies there, and the first steady stretch once it is
    /// worn gives the wearer's.
    @Test func aTablesUpIsForgottenOnceTheDeviceIsFoundOff() throws {
        var pipeline = try DetectionPipeline(profile: .walking, sampleRate: 50)
        pipeline.mounting = try MountingEstimator(sampleRate: 50)
        let table = WearMonitorTests.resting(seconds: 60, breathing: 0)
        for sample in table { _ = pipeline.push(sample) }
        #expect(!pipeline.isWorn)
        #expect(pipeline.mounting?.isEstimated == false, "the table's up is forgotten: \(String(describing: pipeline.mounting?.up))")
        // Clipped on 90° from how it lay, the wearer standing and breathing.
        let mount = MountingRotation(axis: SIMD3(1, 0, 0), angle: .pi / 2)
        let worn = WearMonitorTests.resting(seconds: 40, from: 60_000_000_000, breathing: 10).map {
            IMUSample(timestampNanoseconds: $0.timestampNanoseconds, acceleration: mount.apply($0.acceleration), angularRate: .zero)
        }
        for sample in worn { _ = pipeline.push(sample) }
        #expect(pipeline.isWorn)
        let up = try #require(pipeline.mounting?.up)
        #expect(MountingEstimatorTests.degrees(up, mount.apply(SIMD3(0, 0, 1))) < 10, "the wearer's up: \(up)")
    }

    /// When the generator's labels say the fall (2) began and ended.
    static func fallSpan(_ r: Recording) -> (Int64, Int64)? {
        let labels = r.events.filter { $0.kind == .label }
        guard let start = labels.firstIndex(where: { $0.value == 2 }) else { return nil }
        let end = labels[(start + 1)...].first?.timestampNanoseconds ?? Int64.max
        return (labels[start].timestampNanoseconds, end)
    }

    @Test(arguments: 1...6)
    func theWalkingProfileDetectsTheFallAndNothingElse(seed: Int) throws {
        let generator = SyntheticGenerator(seed: UInt64(seed))
        let fall = generator.generate(.forwardFall)
        let events = try Self.detections(fall, profile: .walking)
        #expect(events.count == 1, "\(events.map(\.summary))")
        let event = try #require(events.first)
        #expect(event.kind == .fall && event.detector == "learned")
        let (start, end) = try #require(Self.fallSpan(fall))
        // Decided within a second and a half of the fall's onset, after it began.
        #expect(event.timestampNanoseconds > start && event.timestampNanoseconds < end + 1_500_000_000)
        for scenario in [SyntheticScenario.walking, .sittingDown, .lyingDown] {
            let quiet = try Self.detections(generator.generate(scenario), profile: .walking)
            #expect(quiet.isEmpty, "\(scenario): \(quiet.map(\.summary))")
        }
    }

    /// Lying on the back in bed for 8 s, then turning onto the side, either on the mattress (the
    /// hips lift a little and land at about 3 g, as SisFall's D14 turns do) or over the edge from
    /// `dropHeight` metres: near free fall (0.95 g down) for as long as that drop takes, then an
    /// 8 g impact on the floor. Then 15 s lying on the side. 100 Hz.
    static func inBed(seed: UInt64, dropHeight: Double? = nil) -> Recording {
        var m = SyntheticMotion(seed: seed, attitude: SIMD3(0, -88, 0), sensor: SyntheticGenerator.sensor)
        m.still(8)
        let start = m.attitude, side = SIMD3<Double>(90, 0, 0)
        let drop = dropHeight.map { (2 * $0 / (0.95 * 9.81)).squareRoot() }
        let landing = drop.map { 0.5 + $0 } ?? 0.65
        let turn = landing + 0.05
        m.run(turn + 0.3) { t, _ in
            let attitude = start + (side - start) * SyntheticCurve.ease(t / turn)
            var a = SIMD3<Double>.zero
            if drop != nil {
                a.z = -0.95 * SyntheticCurve.ease((t - 0.5) / 0.05) * (t < landing ? 1 : 0)
                a.z += 8 * SyntheticCurve.pulse(t, start: landing, duration: 0.06)
            } else {
                a.z = 0.3 * SyntheticCurve.pulse(t, start: 0.1, duration: 0.3) - 0.3 * SyntheticCurve.pulse(t, start: 0.4, duration: 0.3)
                a.z += 2.2 * SyntheticCurve.pulse(t, start: 0.65, duration: 0.06)
            }
            return (attitude, a)
        }
        m.still(15)
        let info = RecordingInfo(sensor: SyntheticGenerator.sensor, title: drop == nil ? "turning over" : "out of bed", isSynthetic: true)
        return Recording(info: info, samples: m.samples)
    }

    @Test(arguments: 1...4)
    func turningOverInBedIsNotAFallButRollingOutOfItIs(seed: Int) throws {
        let turning = Self.inBed(seed: UInt64(seed))
        #expect(turning.samples.map(\.acceleration).map { ($0 * $0).sum().squareRoot() }.max()! > 1.6, "the landing must make a candidate")
        let quiet = try Self.detections(turning, profile: .walking)
        #expect(quiet.isEmpty, "\(quiet.map(\.summary))")
        // It is the turn-in-bed rule that keeps it quiet: without it the learned judge would fire.
        var builder = MotionFrameBuilder(sampleRate: 100)
        var tracker = try FallCandidateTracker(settings: FallCandidateSettings(sampleRate: 100, lyingTilt: 181))
        let judge = try LearnedFallJudge.shipped()
        let scores = turning.samples.compactMap { tracker.push(builder.push($0)) }.map(judge.score)
        #expect(scores.contains { $0 >= judge.threshold }, "\(scores)")
        // Out of an ordinary bed (0.45 m) and out of the lowest made for people at risk of
        // falling (0.2 m): both read faster than `lyingDropVelocity` and are falls.
        for height in [0.45, 0.2] {
            let fall = try Self.detections(Self.inBed(seed: UInt64(seed), dropHeight: height), profile: .walking)
            let event = try #require(fall.first { $0.kind == .fall }, "\(height) m: \(fall.map(\.summary))")
            #expect(try #require(event.evidence.verticalVelocity) < FallCandidateSettings().lyingDropVelocity, "\(height) m")
        }
    }

    @Test(arguments: 1...4)
    func theCyclingProfileReportsTheCrashWithItsSpeeds(seed: Int) throws {
        let crash = SyntheticGenerator(seed: UInt64(seed)).generate(.bikeCrash)
        let events = try Self.detections(crash, profile: .cycling)
        let found = try #require(events.first { $0.kind == .crash }, "\(events.map(\.summary))")
        let before = try #require(found.evidence.speedBefore)
        let after = try #require(found.evidence.speedAfter)
        #expect(before > 15 / 3.6 && after < before)
        #expect(found.phase(.armed) != nil && found.phase(.impact) != nil && found.phase(.stopped) != nil)
    }

    /// Without GNSS, the crash fallback would report the fall a second time; the pipeline keeps one.
    @Test func aFallIsReportedOnceWhenTheCrashFallbackSeesItToo() throws {
        let fall = SyntheticGenerator(seed: 1).generate(.forwardFall)
        var withoutFall = DetectionProfile.cycling
        withoutFall.fall = nil
        withoutFall.freeFall = nil
        let crashOnly = try Self.detections(fall, profile: withoutFall)
        #expect(crashOnly.contains { $0.kind == .crash }, "the fallback must fire on its own for this test to mean anything")
        let both = try Self.detections(fall, profile: .cycling)
        #expect(both.map(\.kind) == [.fall], "\(both.map(\.summary))")
    }

    /// A model file given to the pipeline replaces the shipped model: one whose trees call every
    /// candidate a fall with probability e⁻²⁰ misses the fall the shipped one finds.
    @Test func aGivenModelFileReplacesTheShippedModel() throws {
        let fall = SyntheticGenerator(seed: 1).generate(.forwardFall)
        var profile = DetectionProfile.walking
        profile.freeFall = nil
        #expect(try Self.detections(fall, profile: profile).map(\.detector) == ["learned"])
        let shipped = try FallModelFile.shipped()
        var never = shipped
        never.trees = BoostedTrees(featureCount: shipped.trees.featureCount, bias: -20, nodes: [.leaf(0)], roots: [0])
        #expect(try Self.detections(fall, profile: profile, fallModel: never).isEmpty)
        #expect(try Self.detections(fall, profile: profile, fallModel: shipped).map(\.detector) == ["learned"])
    }

    @Test func detectorsFollowTheProfile() throws {
        #expect(try DetectionPipeline(profile: .walking, sampleRate: 100).detectorNames == ["learned", "free-fall"])
        #expect(try DetectionPipeline(profile: .cycling, sampleRate: 100).detectorNames == ["learned", "free-fall", "crash"])
        #expect(try DetectionPipeline(profile: .motorcycling, sampleRate: 100).detectorNames == ["crash"])
        var multiphase = DetectionProfile.walking
        multiphase.fall = .multiphase
        #expect(try DetectionPipeline(profile: multiphase, sampleRate: 100).detectorNames == ["multiphase", "free-fall"])
    }

    @Test func aBadParameterIsNamed() throws {
        var profile = DetectionProfile.walking
        profile.freeFall?.minimumSeconds = 0
        #expect { try DetectionPipeline(profile: profile, sampleRate: 100) } throws: { ($0 as? FallDetectError)?.field == "minimumSeconds" }
        profile = .walking
        profile.fall = .multiphase
        profile.multiphase.lyingTilt = 200
        #expect { try DetectionPipeline(profile: profile, sampleRate: 100) } throws: { ($0 as? FallDetectError)?.field == "lyingTilt" }
        #expect { try DetectionPipeline(profile: .walking, sampleRate: 5) } throws: { ($0 as? FallDetectError)?.field == "sampleRate" }
    }

    /// Every follow-up outcome a profile's pipeline reports over `samples`.
    static func followUps(_ samples: [IMUSample], profile: DetectionProfile, sampleRate: Float) throws -> [FollowUpOutcome] {
        var pipeline = try DetectionPipeline(profile: profile, sampleRate: sampleRate)
        var outcomes: [FollowUpOutcome] = []
        for sample in samples {
            _ = pipeline.push(sample)
            outcomes += pipeline.takeFollowUps()
        }
        return outcomes
    }

    @Test func theStagesFollowTheFallAsTheProfileAsks() throws {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        let rate = Float(fall.info.sensor.sampleRate)
        let walking = try Self.followUps(fall.samples, profile: .walking, sampleRate: rate)
        #expect(walking.map(\.kind) == [.stayedDown], "walking: the recovery check only")
        let cycling = try Self.followUps(fall.samples, profile: .cycling, sampleRate: rate)
        #expect(Set(cycling.map(\.kind)) == [.stayedDown, .confirmed])
        var none = DetectionProfile.walking
        none.recovery = nil
        #expect(try Self.followUps(fall.samples, profile: none, sampleRate: rate).isEmpty)
    }

    /// The synthetic fall, 3 s on the ground, then the first 8 s of the recording (standing and
    /// walking) again: the wearer got up. With the fall's detection time.
    static func fallThenUp(_ fall: Recording) throws -> (samples: [IMUSample], detection: Int64) {
        let detection = try #require(try Self.detections(fall, profile: .walking).first).timestampNanoseconds
        let period = Int64(1e9 / fall.info.sensor.sampleRate)
        var samples = fall.samples.filter { $0.timestampNanoseconds <= detection + 3_000_000_000 }
        let first = fall.samples[0].timestampNanoseconds
        let resume = (samples.last?.timestampNanoseconds ?? 0) + period
        for s in fall.samples where s.timestampNanoseconds - first < 8_000_000_000 {
            samples.append(IMUSample(timestampNanoseconds: resume + s.timestampNanoseconds - first, acceleration: s.acceleration, angularRate: s.angularRate))
        }
        return (samples, detection)
    }

    /// The pipeline feeding the emergency workflow as the daemon does: detections raise, follow-ups
    /// report, the clock ticks every second and for `after` seconds past the last sample.
    static func workflowActions(_ samples: [IMUSample], profile: DetectionProfile, sampleRate: Float, after: Double = 200) throws -> [WorkflowAction] {
        var pipeline = try DetectionPipeline(profile: profile, sampleRate: sampleRate)
        var workflow = EmergencyWorkflow()
        let who = try ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")
        var actions = workflow.handle(.startProtection(who, gnssConfigured: false, hasFix: false), at: 0)
        var nextTick: Int64 = 0
        for sample in samples {
            let now = sample.timestampNanoseconds
            for event in pipeline.push(sample) { actions += workflow.handle(event.workflowInput, at: now) }
            for outcome in pipeline.takeFollowUps() {
                if let input = outcome.workflowInput { actions += workflow.handle(input, at: now) }
            }
            if now >= nextTick {
                actions += workflow.handle(.tick, at: now)
                nextTick = now + 1_000_000_000
            }
        }
        let end = samples.last?.timestampNanoseconds ?? 0
        for second in 1...Int(after) { actions += workflow.handle(.tick, at: end + Int64(second) * 1_000_000_000) }
        return actions
    }

    @Test func aWearerWhoGetsUpIsNotReportedAndOneWhoStaysDownIs() throws {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        let rate = Float(fall.info.sensor.sampleRate)
        let up = try Self.workflowActions(try Self.fallThenUp(fall).samples, profile: .walking, sampleRate: rate)
        #expect(up.contains(.transition(from: .noEmergency, to: .alertCountdown, reason: "fall detected")), "\(up)")
        #expect(up.contains(.transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall")), "\(up)")
        #expect(!up.contains(.send(.alert)), "\(up)")
        // With the cycling profile's stillness stage as well: lying still, the alert goes out.
        for profile in [DetectionProfile.walking, .cycling] {
            let down = try Self.workflowActions(fall.samples, profile: profile, sampleRate: rate)
            #expect(down.contains(.send(.alert)), "\(profile.name): \(down)")
            #expect(!down.contains { if case .transition(_, .noEmergency, _) = $0 { true } else { false } }, "\(profile.name): \(down)")
        }
        let upCycling = try Self.workflowActions(try Self.fallThenUp(fall).samples, profile: .cycling, sampleRate: rate)
        #expect(!upCycling.contains(.send(.alert)), "\(upCycling)")
    }

    /// The daemon builds the pipeline again when the chip runs at another rate than asked: the
    /// mounting learned so far goes on, at the new pipeline's rate (it kept the old one's before,
    /// and counted its seconds off by the ratio).
    @Test func aTakenOverMountingGoesOnAtTheNewRate() throws {
        var running = try DetectionPipeline(profile: .walking, sampleRate: 100)
        running.mounting = try MountingEstimator(sampleRate: 100, up: SIMD3(0, 1, 0))
        var rebuilt = try DetectionPipeline(profile: .walking, sampleRate: 225)
        rebuilt.mounting = try MountingEstimator(sampleRate: 225)
        rebuilt.takeOver(from: running)
        let mounting = try #require(rebuilt.mounting)
        let fresh = try MountingEstimator(sampleRate: 225)
        #expect(mounting.sampleRate == 225 && mounting.period == fresh.period && mounting.alpha == fresh.alpha)
        #expect(mounting.up == SIMD3(0, 1, 0) && mounting.basis == .walking)
    }

    /// One sample with a NaN and one with an infinity before the fall (a corrupt recording): the
    /// fall is still detected, the attitude not poisoned for good.
    @Test func aNonFiniteSampleIsDroppedNotKeptInTheAttitude() throws {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        var samples = fall.samples
        samples[10].acceleration.x = .nan
        samples[11].angularRate.z = .infinity
        var pipeline = try DetectionPipeline(profile: .walking, sampleRate: Float(fall.info.sensor.sampleRate))
        var falls = 0
        for sample in samples { falls += pipeline.push(sample).filter { $0.kind == .fall }.count }
        #expect(falls == 1)
    }

    @Test func standingUpAfterTheFallIsARecovery() throws {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        var (samples, detection) = try Self.fallThenUp(fall)
        let period = Int64(1e9 / fall.info.sensor.sampleRate)
        let first = fall.samples[0].timestampNanoseconds
        let outcomes = try Self.followUps(samples, profile: .walking, sampleRate: Float(fall.info.sensor.sampleRate))
        #expect(outcomes.map(\.kind) == [.recovered], "\(outcomes.map { $0.summary() })")
        #expect(outcomes.first?.event.timestampNanoseconds == detection)

        // Up again, the wearer falls again within the 30 s gate: a new event, detected.
        let again = (samples.last?.timestampNanoseconds ?? 0) + period - first
        for s in fall.samples {
            samples.append(IMUSample(timestampNanoseconds: again + s.timestampNanoseconds, acceleration: s.acceleration, angularRate: s.angularRate))
        }
        var pipeline = try DetectionPipeline(profile: .walking, sampleRate: Float(fall.info.sensor.sampleRate))
        var falls: [Int64] = []
        for sample in samples { falls += pipeline.push(sample).filter { $0.kind == .fall }.map(\.timestampNanoseconds) }
        #expect(falls.count == 2, "\(falls)")
        if falls.count == 2 { #expect(falls[1] - falls[0] < 30_000_000_000, "inside what the gate alone would hold back") }
        var noRecovery = DetectionProfile.walking
        noRecovery.recovery = nil
        pipeline = try DetectionPipeline(profile: noRecovery, sampleRate: Float(fall.info.sensor.sampleRate))
        var gated = 0
        for sample in samples { gated += pipeline.push(sample).filter { $0.kind == .fall }.count }
        #expect(gated == 1, "without the recovery check the gate holds the second fall back")
    }

    /// An alert answered with "I'm fine" re-arms the detector: a second fall soon after is a new
    /// event, not held back by the refractory period. The recovery stage is off, so that only the
    /// answer can end that period.
    @Test func aFallAfterAnAnsweredAlertIsANewEvent() throws {
        let fall = SyntheticGenerator(seed: 2).generate(.forwardFall)
        let (firstPart, _) = try Self.fallThenUp(fall)
        let period = Int64(1e9 / fall.info.sensor.sampleRate)
        let first = fall.samples[0].timestampNanoseconds
        let again = (firstPart.last?.timestampNanoseconds ?? 0) + period - first
        let twice = firstPart + fall.samples.map {
            IMUSample(timestampNanoseconds: again + $0.timestampNanoseconds, acceleration: $0.acceleration, angularRate: $0.angularRate)
        }
        var noRecovery = DetectionProfile.walking
        noRecovery.recovery = nil
        func falls(rearming: Bool) throws -> [Int64] {
            var pipeline = try DetectionPipeline(profile: noRecovery, sampleRate: Float(fall.info.sensor.sampleRate))
            var times: [Int64] = []
            for sample in twice {
                let found = pipeline.push(sample).filter { $0.kind == .fall }.map(\.timestampNanoseconds)
                if rearming, !found.isEmpty { pipeline.rearm() }
                times += found
            }
            return times
        }
        let answered = try falls(rearming: true)
        #expect(answered.count == 2, "\(answered)")
        if answered.count == 2 { #expect(answered[1] - answered[0] < 30_000_000_000, "inside what the gate alone would hold back") }
        #expect(try falls(rearming: false).count == 1, "without the answer the gate holds the second fall back")
    }

    /// The sensor's gyroscope range reaches the attitude filter: a rate clipped at a 500 °/s
    /// range restarts it from the accelerometer, where at the 2000 °/s default it is a turn.
    @Test func theGyroscopesRangeReachesTheAttitude() throws {
        for (range, clipped) in [(Float(500), true), (2000, false), (.nan, false)] {
            var pipeline = try DetectionPipeline(profile: .walking, sampleRate: 100, gyroscopeRange: range)
            for i in 0..<400 { _ = pipeline.push(IMUSample(timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(0, 0, 1))) }
            _ = pipeline.push(IMUSample(timestampNanoseconds: 4_000_000_000, acceleration: SIMD3(0, 0, 1), angularRate: SIMD3(495, 0, 0)))
            #expect(pipeline.frames.ahrs.flags.contains(.overrangeRecovery) == clipped, "\(range) °/s")
        }
    }
}

import Testing

@testable import FallDetect

/// The synthetic vehicle traces: reproducible, labelled, and physically what their documentation
/// says (the published figures they are built from), over many seeds.
@Suite struct SyntheticVehicleTracesTests {
    static let seeds = UInt64(1)...20

    static func seconds(_ ns: Int64) -> Double { Double(ns) / 1e9 }

    static func activityTime(_ r: Recording, _ name: String) -> Int64? {
        r.events.first { $0.kind == .activity && $0.text == name }?.timestampNanoseconds
    }

    static func peak(_ r: Recording, from: Int64 = .min, to: Int64 = .max) -> Float {
        r.samples.lazy.filter { $0.timestampNanoseconds >= from && $0.timestampNanoseconds < to }
            .map(\.accelerationMagnitude).max() ?? 0
    }

    /// An axis at the ±16 g full scale.
    static func clipped(_ s: IMUSample) -> Bool {
        let a = s.acceleration
        return max(abs(a.x), abs(a.y), abs(a.z)) >= 15.99
    }

    static func speeds(_ r: Recording) -> [Double] { r.fixes.compactMap(\.speed) }

    @Test(arguments: SyntheticVehicleScenario.allCases)
    func sameSeedSameBytesOtherSeedOtherBytes(_ scenario: SyntheticVehicleScenario) throws {
        let a = try RecordingWriter.encode(SyntheticVehicleTraces(seed: 7).generate(scenario))
        let b = try RecordingWriter.encode(SyntheticVehicleTraces(seed: 7).generate(scenario))
        let c = try RecordingWriter.encode(SyntheticVehicleTraces(seed: 8).generate(scenario))
        #expect(a == b)
        #expect(a != c)
    }

    @Test func scenariosDoNotDependOnGenerationOrder() throws {
        let traces = SyntheticVehicleTraces(seed: 99)
        let alone = try RecordingWriter.encode(traces.generate(.gnssOutage))
        for scenario in SyntheticVehicleScenario.allCases { _ = traces.generate(scenario) }
        #expect(try RecordingWriter.encode(traces.generate(.gnssOutage)) == alone)
    }

    /// 100 Hz IMU, 1 Hz fixes on the same clock, marked synthetic, labelled and titled.
    @Test(arguments: SyntheticVehicleScenario.allCases)
    func shapeAndGroundTruth(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds.prefix(5) {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            #expect(r.info.isSynthetic)
            #expect(r.info.title == scenario.rawValue)
            #expect(r.info.sensor.sampleRate == 100)
            #expect(r.samples.count > 2500)
            for (i, s) in r.samples.enumerated() where i % 997 == 0 {
                #expect(s.timestampNanoseconds == Int64(i) * 10_000_000)
            }
            for (i, f) in r.fixes.enumerated() {
                #expect(f.timestampNanoseconds == Int64(i) * 1_000_000_000 + 350_000_000)
            }
            #expect(abs(Double(r.fixes.count) - r.durationSeconds) <= 1)
            let labels = r.events.filter { $0.kind == .label }.map(\.value)
            #expect(labels.first == 0)
            #expect(labels.contains(2) == scenario.containsCrash)
            #expect(r.events.contains { $0.kind == .activity && $0.text == scenario.rawValue }
                || (scenario == .bicycleCrash && r.events.contains { $0.text == "bike-crash" })
                || !scenario.containsCrash)
            #expect(r.events.filter { $0.kind == .activity }.count >= 2)
            #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.timestampNanoseconds <= $1.timestampNanoseconds })
        }
    }

    @Test(arguments: SyntheticVehicleScenario.allCases.filter(\.containsCrash))
    func crashesAreFastThenStoppedWithAHardImpact(_ scenario: SyntheticVehicleScenario) {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            let speeds = Self.speeds(r)
            let fastest = speeds.max() ?? 0
            #expect(fastest * 3.6 >= 19, "seed \(seed)")
            #expect((speeds.last ?? 1) < 0.3, "ends stopped, seed \(seed)")
            let peak = Self.peak(r)
            let rate = r.samples.map { ($0.angularRate * $0.angularRate).sum().squareRoot() }.max() ?? 0
            switch scenario {
            case .carCrash:
                #expect(fastest * 3.6 >= 39 && fastest * 3.6 <= 71)
                // 20–60 g clipped by the ±16 g part: at least one axis at full scale.
                #expect(r.samples.contains { Self.clipped($0) }, "seed \(seed)")
            case .motorcycleCrash:
                #expect(peak >= 8, "seed \(seed)")
                #expect(rate >= 250, "tumbling, seed \(seed)")
            case .bicycleCrash:
                #expect(peak >= 8 && peak <= 16, "seed \(seed)")
                #expect(fastest * 3.6 <= 31)
            default: break
            }
        }
    }

    /// WreckWatch: normal driving, hard braking included, stays below 4 g.
    @Test(arguments: [SyntheticVehicleScenario.hardBraking, .trafficLightStop])
    func brakingStaysBelowFourG(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            #expect(Self.peak(r) < 2, "seed \(seed)")
            let speeds = Self.speeds(r)
            #expect(speeds.contains { $0 < 0.3 }, "comes to a stop, seed \(seed)")
            // The fastest drop between fixes matches the braking: up to 1 g hard, 0.35 g gentle.
            let drop = zip(speeds, speeds.dropFirst()).map { $0 - $1 }.max() ?? 0
            let limit = scenario == .hardBraking ? 1.0 : 0.35
            #expect(drop <= limit * 9.81 + 0.2 && drop >= 0.5 * limit * 9.81, "seed \(seed): \(drop) m/s²")
        }
    }

    @Test(arguments: [SyntheticVehicleScenario.pothole, .gnssOutage])
    func potholesAreShortSpikesAndTheRideGoesOn(_ scenario: SyntheticVehicleScenario) throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(scenario)
            let at = try #require(Self.activityTime(r, "pothole"))
            let peak = Self.peak(r, from: at, to: at + 500_000_000)
            #expect(peak >= 4 && peak <= 8.5, "seed \(seed): \(peak) g")
            // Short: under 60 ms above 3 g.
            let long = r.samples.filter { $0.timestampNanoseconds >= at && $0.timestampNanoseconds < at + 500_000_000 && $0.accelerationMagnitude > 3 }
            #expect(long.count <= 6)
            let after = r.fixes.filter { $0.timestampNanoseconds > at + 3_000_000_000 }.compactMap(\.speed)
            #expect(!after.isEmpty && after.allSatisfy { $0 * 3.6 >= 25 }, "seed \(seed)")
        }
    }

    @Test func gnssOutageHasNoFixesAroundTheJolt() throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.gnssOutage)
            let at = try #require(Self.activityTime(r, "pothole"))
            let blind = r.fixes.filter { $0.mode == .none }
            #expect(blind.count >= 24 && blind.allSatisfy { $0.speed == nil && !$0.isTrusted })
            let lastGood = try #require(r.fixes.last { $0.isTrusted && $0.timestampNanoseconds < at })
            #expect(Self.seconds(at - lastGood.timestampNanoseconds) >= 7, "seed \(seed)")
            #expect(r.fixes.last?.isTrusted == true, "the fix comes back")
        }
    }

    @Test func droppedDeviceFallsFreelyAtAStandstill() throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.deviceDropped)
            #expect(Self.speeds(r).allSatisfy { $0 < 0.3 })
            let at = try #require(Self.activityTime(r, "device-dropped"))
            let window = r.samples.filter { $0.timestampNanoseconds >= at && $0.timestampNanoseconds < at + 1_000_000_000 }
            // √(2h/g) for 1–1.5 m: 0.45–0.55 s near 0 g.
            #expect(window.filter { $0.accelerationMagnitude < 0.3 }.count >= 35, "seed \(seed)")
            #expect(window.contains { Self.clipped($0) }, "20–60 g clips, seed \(seed)")
        }
    }

    @Test func lowSpeedImpactStaysBelowEveryArmingSpeed() throws {
        let slowest = [CrashDetectorParameters(), .cycling, .motorcycling, .car].map(\.armingSpeed).min() ?? 0
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.lowSpeedImpact)
            #expect(Self.speeds(r).allSatisfy { $0 < slowest }, "seed \(seed)")
            let at = try #require(Self.activityTime(r, "curb-impact"))
            #expect(Self.peak(r, from: at, to: at + 500_000_000) >= 4, "crash-like, seed \(seed)")
        }
    }

    @Test func speedBumpIsTakenSlowly() throws {
        for seed in Self.seeds {
            let r = SyntheticVehicleTraces(seed: seed).generate(.speedBump)
            let at = try #require(Self.activityTime(r, "speed-bump"))
            let near = r.fixes.filter { abs($0.timestampNanoseconds - at) < 1_000_000_000 }.compactMap(\.speed)
            #expect(!near.isEmpty && near.allSatisfy { $0 * 3.6 <= 19 }, "seed \(seed)")
            let peak = Self.peak(r, from: at, to: at + 2_000_000_000)
            #expect(peak >= 2 && peak <= 5.5, "seed \(seed): \(peak)")
        }
    }

    /// The IMU's forward acceleration is the derivative of the GNSS speed: integrating the specific
    /// force minus the gravity seen while cruising gives back the speed lost in a gentle stop.
    @Test func imuAndGNSSAgreeOnTheSpeedLost() throws {
        for seed in Self.seeds.prefix(5) {
            let r = SyntheticVehicleTraces(seed: seed).generate(.trafficLightStop)
            let braking = try #require(Self.activityTime(r, "braking"))
            let stopped = try #require(Self.activityTime(r, "stopped"))
            let cruise = r.samples.filter { $0.timestampNanoseconds >= braking - 5_000_000_000 && $0.timestampNanoseconds < braking }
            let gravity = cruise.reduce(SIMD3<Double>.zero) { $0 + SIMD3<Double>($1.acceleration) } / Double(cruise.count)
            var integral = SIMD3<Double>.zero
            for s in r.samples where s.timestampNanoseconds >= braking && s.timestampNanoseconds < stopped {
                integral += (SIMD3<Double>(s.acceleration) - gravity) * 9.806_65 * 0.01
            }
            let deltaV = (integral * integral).sum().squareRoot()
            let lost = try #require(r.fixes.last { $0.timestampNanoseconds <= braking }?.speed)
            #expect(abs(deltaV - lost) <= 0.2 * lost, "seed \(seed): IMU \(deltaV) m/s, GNSS \(lost) m/s")
        }
    }
}

import Foundation
import Testing
@testable import FallDetect

@Suite struct SyntheticGeneratorTests {
    private static let generator = SyntheticGenerator(seed: DemoRecordings.seed)

    private func recording(_ scenario: SyntheticScenario) -> Recording {
        Self.generator.generate(scenario)
    }

    private func seconds(_ ns: Int64) -> Double { Double(ns) / 1e9 }

    private func mean(_ samples: ArraySlice<IMUSample>) -> SIMD3<Double> {
        samples.reduce(SIMD3<Double>.zero) { $0 + SIMD3<Double>($1.acceleration) } / Double(samples.count)
    }

    private func norm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    private func degreesBetween(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let c = (a * b).sum() / (norm(a) * norm(b))
        return acos(min(1, max(-1, c))) * 180 / Double.pi
    }

    /// Samples from `from` to `to` seconds.
    private func window(_ r: Recording, _ from: Double, _ to: Double) -> ArraySlice<IMUSample> {
        let lo = r.samples.firstIndex { seconds($0.timestampNanoseconds) >= from } ?? r.samples.count
        let hi = r.samples.firstIndex { seconds($0.timestampNanoseconds) >= to } ?? r.samples.count
        return r.samples[lo..<max(lo, hi)]
    }

    private func labelTime(_ r: Recording, _ value: Int32) -> Double? {
        r.events.first { $0.kind == .label && $0.value == value }.map { seconds($0.timestampNanoseconds) }
    }

    /// Carries the gravity direction seen at the start through every gyro sample (each sample's
    /// rate turns its attitude into the next one's) and returns the angle to the gravity direction
    /// the accelerometer shows at the end.
    private func gyroTiltError(_ r: Recording) -> Double {
        var up = mean(r.samples.prefix(100))
        up /= norm(up)
        let dt = 1 / r.info.sensor.sampleRate
        for sample in r.samples {
            let w = SIMD3<Double>(sample.angularRate) * (Double.pi / 180)
            let angle = norm(w) * dt
            guard angle > 0 else { continue }
            // A world-fixed vector seen from a body turning by +angle turns by -angle (Rodrigues).
            let k = w / norm(w), c = cos(-angle), s = sin(-angle)
            let cross = SIMD3(k.y * up.z - k.z * up.y, k.z * up.x - k.x * up.z, k.x * up.y - k.y * up.x)
            up = up * c + cross * s + k * ((k * up).sum() * (1 - c))
        }
        return degreesBetween(up, mean(r.samples.suffix(100)))
    }

    @Test(arguments: SyntheticScenario.allCases)
    func sameSeedGivesIdenticalBytes(_ scenario: SyntheticScenario) throws {
        let a = try RecordingWriter.encode(SyntheticGenerator(seed: 7).generate(scenario))
        let b = try RecordingWriter.encode(SyntheticGenerator(seed: 7).generate(scenario))
        let c = try RecordingWriter.encode(SyntheticGenerator(seed: 8).generate(scenario))
        #expect(a == b)
        #expect(a != c)
    }

    @Test(arguments: SyntheticScenario.allCases)
    func recordingsAreMarkedSyntheticAndSampledAt100Hz(_ scenario: SyntheticScenario) {
        let r = recording(scenario)
        #expect(r.info.isSynthetic)
        #expect(r.info.title == scenario.rawValue)
        #expect(r.info.sensor.sampleRate == 100)
        #expect(r.samples.count > 3000)
        for (a, b) in zip(r.samples, r.samples.dropFirst()) where b.timestampNanoseconds - a.timestampNanoseconds != 10_000_000 {
            Issue.record("irregular sample spacing at \(a.timestampNanoseconds)")
            break
        }
        let bounds = r.samples.allSatisfy { s in
            (0..<3).allSatisfy { abs(s.acceleration[$0]) <= 16 && abs(s.angularRate[$0]) <= 2000 }
        }
        #expect(bounds)
    }

    @Test func anUprightWearerAtRestReadsOneGOnZ() {
        let rest = window(recording(.walking), 0, 2)
        let a = mean(rest)
        #expect(abs(a.z - 1) < 0.02)
        #expect(abs(a.x) < 0.02 && abs(a.y) < 0.02)
        let gyro = rest.map { norm(SIMD3<Double>($0.angularRate)) }.max() ?? 0
        #expect(gyro < 1.5)  // noise and breathing only
    }

    @Test func walkingStepsAt1Point8To2HzWithAQuarterGBounce() throws {
        let r = recording(.walking)
        #expect(r.durationSeconds >= 59 && r.durationSeconds <= 61)
        let walk = Array(window(r, 5, 55))
        // Smooth over 5 samples, then count upward crossings of the mean vertical acceleration.
        let z = walk.map { Double($0.acceleration.z) }
        let smooth = (2..<(z.count - 2)).map { i in z[(i - 2)...(i + 2)].reduce(0, +) / 5 }
        let average = smooth.reduce(0, +) / Double(smooth.count)
        var crossings = 0
        for (a, b) in zip(smooth, smooth.dropFirst()) where a < average && b >= average { crossings += 1 }
        let stepRate = Double(crossings) / 50
        #expect(stepRate >= 1.75 && stepRate <= 2.05, "step rate \(stepRate)")
        let sorted = z.sorted()
        let amplitude = (sorted[sorted.count * 95 / 100] - sorted[sorted.count * 5 / 100]) / 2
        #expect(amplitude >= 0.2 && amplitude <= 0.45, "vertical amplitude \(amplitude)")
    }

    @Test func sittingDownHasASeatImpactAndASmallBackwardTilt() throws {
        let r = recording(.sittingDown)
        let start = try #require(r.events.first { $0.text == "sitting-down" }).timestampNanoseconds
        let sit = window(r, seconds(start), seconds(start) + 2.5)
        let peak = sit.map(\.accelerationMagnitude).max() ?? 0
        #expect(peak >= 1.3 && peak <= 1.8, "seat impact \(peak) g")
        let seated = mean(r.samples.suffix(500))
        let tilt = degreesBetween(seated, SIMD3(0, 0, 1))
        #expect(tilt >= 4 && tilt <= 15, "seated tilt \(tilt)°")
        #expect(seated.x > 0)  // leaning back: the chest axis points slightly up
        #expect(labelValues(r) == [0])
    }

    @Test func lyingDownIsASlowControlledPitchTo80To90Degrees() throws {
        let r = recording(.lyingDown)
        let start = try #require(r.events.first { $0.text == "lying-down" }).timestampNanoseconds
        let lying = mean(r.samples.suffix(1000))
        let tilt = degreesBetween(lying, SIMD3(0, 0, 1))
        #expect(tilt >= 80 && tilt <= 90, "lying tilt \(tilt)°")
        let transition = window(r, seconds(start), seconds(start) + 4)
        let fastest = transition.map { norm(SIMD3<Double>($0.angularRate)) }.max() ?? 0
        #expect(fastest > 20 && fastest < 90, "lie-down rate \(fastest) °/s")
        #expect(transition.map(\.accelerationMagnitude).max() ?? 0 < 1.3)  // no impact
        #expect(labelValues(r) == [0])
    }

    @Test func forwardFallHasFreeFallImpactAndStillness() throws {
        let r = recording(.forwardFall)
        let alert = try #require(labelTime(r, 1))
        let fall = try #require(labelTime(r, 2))
        let end = try #require(r.events.last { $0.kind == .label }.map { seconds($0.timestampNanoseconds) })
        #expect(alert < fall && fall < end)
        #expect(labelValues(r) == [0, 1, 2, 0])
        // Near free fall: a run of |a| < 0.4 g lasting 0.25–0.45 s between the trip and the impact.
        let during = Array(window(r, alert, end))
        var longest = 0, run = 0
        for s in during {
            run = s.accelerationMagnitude < 0.4 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest >= 25 && longest <= 45, "free fall for \(longest) samples")
        let peak = during.map(\.accelerationMagnitude).max() ?? 0
        #expect(peak >= 4 && peak <= 8, "impact \(peak) g")
        let pitchRate = during.map { abs(Double($0.angularRate.y)) }.max() ?? 0
        #expect(pitchRate >= 150, "pitch rate \(pitchRate) °/s")
        // Lying still for at least 20 s afterwards, face down (chest axis towards the ground).
        let still = window(r, end + 0.5, end + 20.5)
        #expect(still.count == 2000)
        #expect(still.allSatisfy { abs($0.accelerationMagnitude - 1) < 0.08 })
        #expect(mean(still).x < -0.95)
        #expect(r.durationSeconds - end >= 20)
    }

    @Test func bikeCrashHasGNSSTrackHighGImpactAndStop() throws {
        let r = recording(.bikeCrash)
        let alert = try #require(labelTime(r, 1))
        let fall = try #require(labelTime(r, 2))
        #expect(labelValues(r) == [0, 1, 2, 0])
        #expect(alert >= 20 && fall > alert)
        let peak = window(r, alert, alert + 2).map(\.accelerationMagnitude).max() ?? 0
        #expect(peak >= 8 && peak <= 15, "impact \(peak) g")
        let tumbling = window(r, alert, alert + 1.5).map { norm(SIMD3<Double>($0.angularRate)) }.max() ?? 0
        #expect(tumbling >= 300, "tumbling \(tumbling) °/s")
        // Riding: road vibration on top of 1 g.
        let riding = window(r, 2, alert - 1).map { Double($0.accelerationMagnitude) }
        let average = riding.reduce(0, +) / Double(riding.count)
        let spread = (riding.map { ($0 - average) * ($0 - average) }.reduce(0, +) / Double(riding.count)).squareRoot()
        #expect(abs(average - 1) < 0.05 && spread > 0.05 && spread < 0.3, "riding |a| \(average) ± \(spread)")

        #expect(r.fixes.count >= 50)
        for (a, b) in zip(r.fixes, r.fixes.dropFirst()) {
            #expect(b.timestampNanoseconds - a.timestampNanoseconds == 1_000_000_000)
        }
        let before = r.fixes.filter { seconds($0.timestampNanoseconds) < alert }
        let after = r.fixes.filter { seconds($0.timestampNanoseconds) > alert + 3 }
        #expect(before.count >= 25 && after.count >= 20)
        for fix in before {
            let kmh = (fix.speed ?? -1) * 3.6
            #expect(kmh >= 20 && kmh <= 25, "speed \(kmh) km/h")
            #expect(fix.mode == .threeD && fix.hasPosition && fix.track != nil)
            #expect(fix.horizontalAccuracy != nil && fix.satellitesUsed != nil && fix.utcNanoseconds != nil)
        }
        for fix in after {
            #expect((fix.speed ?? 99) < 0.5, "speed after the crash \(fix.speed ?? -1)")
        }
        // The position moves along the track before the crash and stays put after it.
        let first = try #require(before.first), last = try #require(before.last)
        let north = (last.latitude! - first.latitude!) * 111_320
        let east = (last.longitude! - first.longitude!) * 111_320 * cos(first.latitude! * Double.pi / 180)
        let travelled = (north * north + east * east).squareRoot()
        let expected = Double(before.count - 1) * 6.2
        #expect(abs(travelled - expected) < 0.15 * expected, "travelled \(travelled) m")
        var heading = atan2(east, north) * 180 / Double.pi
        if heading < 0 { heading += 360 }
        let reported = first.track!
        #expect(min(abs(heading - reported), 360 - abs(heading - reported)) < 10, "heading \(heading) vs \(reported)")
        #expect(abs(first.latitude! - 47.38) < 0.1 && abs(first.longitude! - 8.54) < 0.1)
    }

    @Test(arguments: SyntheticScenario.allCases)
    func integratingTheGyroReproducesTheFinalTilt(_ scenario: SyntheticScenario) {
        let error = gyroTiltError(recording(scenario))
        #expect(error < 3, "\(scenario): gyro-integrated tilt is off by \(error)°")
    }

    @Test(arguments: SyntheticScenario.allCases)
    func eventsAreOrderedAndNameTheActivities(_ scenario: SyntheticScenario) {
        let r = recording(scenario)
        let times = r.events.map(\.timestampNanoseconds)
        #expect(times == times.sorted())
        #expect(r.events.first?.kind == .label && r.events.first?.timestampNanoseconds == 0)
        let activities = r.events.filter { $0.kind == .activity }
        #expect(activities.first?.timestampNanoseconds == 0)
        #expect(activities.allSatisfy { !$0.text.isEmpty })
        #expect(r.events.filter { $0.kind == .label }.allSatisfy { (0...2).contains($0.value) })
        #expect(labelValues(r).contains(2) == scenario.containsFall)
        let last = r.samples.last?.timestampNanoseconds ?? 0
        #expect(times.allSatisfy { $0 <= last })
    }

    @Test func allScenariosTogetherStayUnderOneMegabyte() throws {
        let sizes = try SyntheticScenario.allCases.map { try RecordingWriter.encode(recording($0)).count }
        #expect(sizes.reduce(0, +) < 1_000_000, "sizes \(sizes)")
    }

    private func labelValues(_ r: Recording) -> [Int32] {
        r.events.filter { $0.kind == .label }.map(\.value)
    }
}

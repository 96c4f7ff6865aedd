import Foundation
import Testing

@testable import FallDetect

/// The candidate tracker on hand-built frame sequences (every field of every frame chosen by the
/// test, so each measurement has a known answer) and on IMU traces through `MotionFrameBuilder`.
@Suite struct FallCandidateTrackerTests {
    static let rate: Float = 100
    static let periodNanoseconds: Int64 = 10_000_000
    /// An arbitrary clock origin, so no timestamp is accidentally 0.
    static let origin: Int64 = 7_000_000_000

    static func settings() -> FallCandidateSettings { FallCandidateSettings(sampleRate: rate) }

    /// A trace described per sample; `frames` turns it into frames with timestamps.
    struct Trace {
        var magnitude: [Float]
        var tilt: [Float]
        var verticalVelocity: [Float]
        var angularRate: [Float]
        var saturated: [Bool]

        init(count: Int) {
            magnitude = Array(repeating: 1, count: count)
            tilt = Array(repeating: 0, count: count)
            verticalVelocity = Array(repeating: 0, count: count)
            angularRate = Array(repeating: 0, count: count)
            saturated = Array(repeating: false, count: count)
        }

        var count: Int { magnitude.count }

        func timestamp(_ i: Int) -> Int64 { FallCandidateTrackerTests.origin + Int64(i) * FallCandidateTrackerTests.periodNanoseconds }

        /// |a| along body z, so `accelerationMagnitude` is exactly `magnitude[i]`.
        func frame(_ i: Int) -> MotionFrame {
            MotionFrame(
                timestampNanoseconds: timestamp(i), samplePeriod: 1 / FallCandidateTrackerTests.rate,
                acceleration: SIMD3(0, 0, magnitude[i]), angularRateMagnitude: angularRate[i], tiltDegrees: tilt[i],
                verticalAcceleration: 0, verticalVelocity: verticalVelocity[i], saturated: saturated[i])
        }
    }

    /// Every candidate with the index of the frame that produced it.
    static func run(_ trace: Trace, settings: FallCandidateSettings = settings()) throws -> [(index: Int, candidate: FallCandidate)] {
        var tracker = try FallCandidateTracker(settings: settings)
        var out: [(Int, FallCandidate)] = []
        for i in 0..<trace.count {
            if let c = tracker.push(trace.frame(i)) { out.append((i, c)) }
        }
        return out
    }

    static func mean(_ values: ArraySlice<Float>) -> Double { values.reduce(0.0) { $0 + Double($1) } / Double(values.count) }

    static func close(_ a: Float, _ b: Double, _ tolerance: Double = 1e-4) -> Bool { abs(Double(a) - b) <= tolerance }

    // MARK: One candidate per impact

    @Test func oneImpactGivesOneCandidateDecisionDelayAfterThePeak() throws {
        let s = Self.settings()
        var trace = Trace(count: 1000)
        let p = 400
        trace.magnitude[p] = 3
        trace.magnitude[p + 1] = 2.2  // the bounce: above the threshold, but smaller
        let found = try Self.run(trace, settings: s)
        try #require(found.count == 1, "\(found.map(\.index))")
        let delay = Int((s.decisionDelay * s.sampleRate).rounded())
        #expect(found[0].index == p + delay)
        #expect(found[0].candidate.impactNanoseconds == trace.timestamp(p))
        #expect(found[0].candidate.decisionNanoseconds == trace.timestamp(p + delay))
        #expect(found[0].candidate.decisionNanoseconds - found[0].candidate.impactNanoseconds == Int64(delay) * Self.periodNanoseconds)
        #expect(found[0].candidate.peakAcceleration == 3)
    }

    @Test func impactExactlyAtTheThresholdCountsAndJustUnderDoesNot() throws {
        let s = Self.settings()
        var at = Trace(count: 600)
        at.magnitude[300] = s.impactThreshold
        var under = at
        under.magnitude[300] = s.impactThreshold.nextDown
        #expect(try Self.run(at).count == 1)
        #expect(try Self.run(under).isEmpty)
    }

    @Test func aLargerPeakBeforeTheDecisionRecentresTheImpact() throws {
        let s = Self.settings()
        let delay = Int((s.decisionDelay * s.sampleRate).rounded())
        var trace = Trace(count: 1000)
        let first = 300, second = 300 + delay / 2
        trace.magnitude[first] = 3
        trace.magnitude[second] = 5
        let found = try Self.run(trace)
        try #require(found.count == 1, "\(found.map(\.index))")
        #expect(found[0].candidate.peakAcceleration == 5)
        #expect(found[0].candidate.impactNanoseconds == trace.timestamp(second))
        #expect(found[0].index == second + delay)

        // The same two peaks the other way round: the first, larger, stays the impact.
        var reversed = Trace(count: 1000)
        reversed.magnitude[first] = 5
        reversed.magnitude[second] = 3
        let kept = try Self.run(reversed)
        try #require(kept.count == 1)
        #expect(kept[0].candidate.impactNanoseconds == reversed.timestamp(first))
        #expect(kept[0].index == first + delay)
    }

    @Test func aLargerPeakAtTheDecisionSampleStillRecentres() throws {
        let s = Self.settings()
        let delay = Int((s.decisionDelay * s.sampleRate).rounded())
        var trace = Trace(count: 1000)
        trace.magnitude[300] = 3
        trace.magnitude[300 + delay] = 4
        let found = try Self.run(trace)
        try #require(found.count == 1)
        #expect(found[0].candidate.impactNanoseconds == trace.timestamp(300 + delay))
    }

    @Test func aPeakAfterTheDecisionStartsASecondCandidate() throws {
        let s = Self.settings()
        let delay = Int((s.decisionDelay * s.sampleRate).rounded())
        var trace = Trace(count: 1000)
        trace.magnitude[300] = 3
        trace.magnitude[300 + delay + 1] = 5
        let found = try Self.run(trace)
        #expect(found.map(\.index) == [300 + delay, 300 + 2 * delay + 1])
        #expect(found.map(\.candidate.peakAcceleration) == [3, 5])
    }

    // MARK: Measurements

    /// A fall built phase by phase: calm at 5° then busy (|a| 1 ± d) from −3 s to −0.5 s, a
    /// weightless stretch of `low` samples, the impact, a bounce, then lying around 85°.
    static func fallTrace(p: Int, low: Int, d: Float) -> Trace {
        var t = Trace(count: p + 400)
        for i in 0..<t.count { t.tilt[i] = 5 }
        for i in (p - 300)..<(p - 50) { t.magnitude[i] = i % 2 == 0 ? 1 + d : 1 - d }
        for i in (p - low)..<p {
            t.magnitude[i] = 0.2 + 0.3 * Float(p - i) / Float(low)  // 0.5 at the start, deepest just before the impact
            t.tilt[i] = 5 + 80 * Float(i - (p - low)) / Float(low)
            t.verticalVelocity[i] = -0.05 * Float(i - (p - low))
            t.angularRate[i] = 150 + 5 * Float(i - (p - low))
        }
        t.magnitude[p] = 4.5
        t.angularRate[p] = 90
        for i in (p + 1)..<(p + 20) {
            t.magnitude[i] = i % 2 == 0 ? 1.5 : 0.7
            t.tilt[i] = 86
            t.angularRate[i] = 40
        }
        for i in (p + 20)..<t.count {
            t.magnitude[i] = i % 3 == 0 ? 1.06 : 0.98
            t.tilt[i] = 83 + Float(i % 7)
        }
        return t
    }

    @Test(arguments: [(30, Float(0.2)), (45, Float(0.05)), (12, Float(0.35))])
    func featuresMatchTheTraceTheyWereBuiltFrom(_ low: Int, _ d: Float) throws {
        let s = Self.settings()
        let p = 600
        let trace = Self.fallTrace(p: p, low: low, d: d)
        let found = try Self.run(trace, settings: s)
        try #require(found.count == 1, "\(found.map(\.index))")
        let c = found[0].candidate
        let n = { (seconds: Float) in Int((seconds * s.sampleRate).rounded()) }
        let decision = p + n(s.decisionDelay)

        #expect(c.peakAcceleration == 4.5)
        #expect(!c.saturated)
        // The falling phase: the falling span before the impact.
        let span = FallCandidateSettings.fallingSpan, before = FallCandidateSettings.postureBefore
        let falling = (p - n(span))...p
        #expect(c.minimumAccelerationBefore == falling.map { trace.magnitude[$0] }.min())
        let lowCount = falling.dropFirst().filter { trace.magnitude[$0] < s.freeFallThreshold }.count
        #expect(lowCount == low)
        #expect(Self.close(c.lowAccelerationSeconds, Double(lowCount) / Double(s.sampleRate), 1e-6))
        #expect(c.minimumVerticalVelocity == falling.map { trace.verticalVelocity[$0] }.min())
        // Computed from the nominal period in Float: exact to well under a microsecond.
        #expect(abs(c.fallingStartNanoseconds - trace.timestamp(p - low)) < 1_000, "\(c.fallingStartNanoseconds - trace.timestamp(p - low)) ns")
        #expect(c.impactNanoseconds == trace.timestamp(p))
        #expect(c.decisionNanoseconds == trace.timestamp(decision))
        // Rotation: from the falling span's start to the posture window.
        #expect(c.peakAngularRate == ((p - n(span))..<(p + n(s.postureDelay))).map { trace.angularRate[$0] }.max())
        // Posture before: mean tilt from −2.5 s to −1.5 s.
        #expect(Self.close(c.tiltBefore, Self.mean(trace.tilt[(p - n(before.start))..<(p - n(before.end))])))
        // Posture after: the window [postureDelay, decisionDelay] after the impact, both ends in.
        let after = trace.tilt[(p + n(s.postureDelay))...decision]
        #expect(Self.close(c.tiltAfter, Self.mean(after)))
        #expect(c.maximumTiltAfter == after.max())
        #expect(c.tiltAtDecision == trace.tilt[decision])
        #expect(Self.close(c.tiltChange, Self.mean(after) - Self.mean(trace.tilt[(p - n(before.start))..<(p - n(before.end))])))
        let afterMagnitudes = trace.magnitude[(p + n(s.postureDelay))...decision]
        let m = Self.mean(afterMagnitudes)
        let std = (afterMagnitudes.reduce(0.0) { $0 + (Double($1) - m) * (Double($1) - m) } / Double(afterMagnitudes.count)).squareRoot()
        #expect(Self.close(c.motionAfter, std))
        // Activity: mean ||a| − 1| from −3 s to −0.5 s: the busy stretch was built as 1 ± d.
        let activity = trace.magnitude[(p - n(3))..<(p - n(0.5))]
        #expect(Self.close(c.activityBefore, activity.reduce(0.0) { $0 + abs(Double($1) - 1) } / Double(activity.count)))
        #expect(Self.close(c.activityBefore, Double(d), 1e-5))
    }

    @Test func aCalmStartAndNoWeightlessnessGiveZeroes() throws {
        var trace = Trace(count: 900)
        for i in 0..<900 { trace.tilt[i] = 12 }
        trace.magnitude[500] = 2.5
        let found = try Self.run(trace)
        try #require(found.count == 1)
        let c = found[0].candidate
        #expect(c.activityBefore == 0)
        #expect(c.lowAccelerationSeconds == 0)
        #expect(c.minimumAccelerationBefore == 1)
        #expect(c.tiltChange == 0)
        #expect(c.tiltBefore == 12)
    }

    @Test func tiltBeforeFallsBackToTheEarliestSampleEarlyInARecording() throws {
        // The impact comes 0.5 s in: nothing is held from −2.5 s to −1.5 s.
        var trace = Trace(count: 200)
        for i in 0..<200 { trace.tilt[i] = 20 + Float(i) }
        trace.magnitude[50] = 3
        let found = try Self.run(trace)
        try #require(found.count == 1)
        #expect(found[0].candidate.tiltBefore == trace.tilt[0])
    }

    // MARK: Turning over in bed

    /// Lying (80°) from the start, an impact 5 s in, and the fastest downward speed before it.
    static func lyingTrace(dropVelocity: Float, impactAt: Int = 500, tiltDip: Int? = nil) -> Trace {
        var trace = Trace(count: impactAt + 200)
        for i in 0..<trace.count { trace.tilt[i] = 80 }
        if let tiltDip { trace.tilt[tiltDip] = 50 }
        trace.verticalVelocity[impactAt - 20] = dropVelocity
        trace.magnitude[impactAt] = 2.5
        return trace
    }

    @Test func aTurnWhileLyingGivesNoCandidateButADropOutOfBedDoes() throws {
        #expect(try Self.run(Self.lyingTrace(dropVelocity: -0.5)).isEmpty)
        let drop = try Self.run(Self.lyingTrace(dropVelocity: -1.5))
        try #require(drop.count == 1)
        #expect(drop[0].candidate.minimumTiltBefore == 80)
        #expect(drop[0].candidate.isTurnWhileLying(lyingTilt: 60, dropVelocity: -1) == false)
    }

    @Test func aMomentUprightInTheSecondsBeforeMeansNotLying() throws {
        // 2 s before the impact the trunk was at 50°: the body did not lie throughout.
        let found = try Self.run(Self.lyingTrace(dropVelocity: -0.5, tiltDip: 300))
        try #require(found.count == 1)
        #expect(found[0].candidate.minimumTiltBefore == 50)
        // The same dip 4 s before lies outside the span looked at.
        #expect(try Self.run(Self.lyingTrace(dropVelocity: -0.5, tiltDip: 100)).isEmpty)
    }

    @Test func whileTheAHRSSettlesPostureIsUnknownAndTheCandidateStays() throws {
        // Impact 1.5 s in: from −3 s to −1 s only the first 0.5 s is held, before the tilt settled.
        let found = try Self.run(Self.lyingTrace(dropVelocity: -0.5, impactAt: 150))
        try #require(found.count == 1)
        #expect(found[0].candidate.minimumTiltBefore == 0)
    }

    @Test func theCheckFollowsItsSettings() throws {
        var s = Self.settings()
        s.lyingTilt = 181
        #expect(try Self.run(Self.lyingTrace(dropVelocity: -0.5), settings: s).count == 1)
        s = Self.settings()
        s.lyingDropVelocity = -0.4
        #expect(try Self.run(Self.lyingTrace(dropVelocity: -0.5), settings: s).count == 1)
        for bad in [Float(0), .nan] {
            s = Self.settings()
            s.lyingTilt = bad
            #expect(throws: FallDetectError.self) { try FallCandidateTracker(settings: s) }
        }
        s = Self.settings()
        s.lyingDropVelocity = 0.5
        #expect(throws: FallDetectError.self) { try FallCandidateTracker(settings: s) }
    }

    // MARK: Saturation

    @Test func saturationAtOrJustAfterThePeakIsReportedAndLaterIsNot() throws {
        let s = Self.settings()
        let postureDelay = Int((s.postureDelay * s.sampleRate).rounded())
        func saturated(at offset: Int?) throws -> Bool {
            var trace = Trace(count: 800)
            trace.magnitude[300] = 6
            trace.magnitude[301] = 3
            if let offset { trace.saturated[300 + offset] = true }
            let found = try Self.run(trace, settings: s)
            try #require(found.count == 1)
            return found[0].candidate.saturated
        }
        #expect(try saturated(at: nil) == false)
        #expect(try saturated(at: 0) == true)
        #expect(try saturated(at: postureDelay) == true)
        #expect(try saturated(at: postureDelay + 1) == false)
        #expect(try saturated(at: -1) == false)  // before the impact
    }

    // MARK: Reset and settings

    @Test func resetForgetsAnImpactBeingFollowed() throws {
        var tracker = try FallCandidateTracker(settings: Self.settings())
        var trace = Trace(count: 400)
        trace.magnitude[100] = 3
        for i in 0...120 { #expect(tracker.push(trace.frame(i)) == nil) }
        tracker.reset()
        var after: [FallCandidate] = []
        for i in 121..<400 { if let c = tracker.push(trace.frame(i)) { after.append(c) } }
        #expect(after.isEmpty)

        // Without the reset the same frames give the candidate.
        var control = try FallCandidateTracker(settings: Self.settings())
        var count = 0
        for i in 0..<400 { if control.push(trace.frame(i)) != nil { count += 1 } }
        #expect(count == 1)
    }

    @Test func invalidSettingsAreRejectedAtInit() {
        var s = Self.settings()
        s.decisionDelay = s.postureDelay
        #expect(throws: FallDetectError.self) { try FallCandidateTracker(settings: s) }
    }

    // MARK: Everyday motion through the frame builder

    /// IMU at 100 Hz: standing still with sensor noise, or walking with a vertical bounce whose
    /// peaks reach `stepPeak` g; optionally one step reaching `strongStep` g.
    static func imuTrace(seconds: Int, stepPeak: Float?, strongStep: (index: Int, peak: Float)? = nil, seed: UInt64) -> [IMUSample] {
        var rng = SplitMix64(seed: seed)
        func noise() -> Float { Float(Double(rng.next() >> 11) / Double(1 << 53) - 0.5) * 0.02 }
        var samples: [IMUSample] = []
        let count = seconds * 100
        for i in 0..<count {
            let t = Float(i) / 100
            var z: Float = 1
            if let stepPeak {
                // 2 steps a second; |a| = 1 + (peak − 1)·sin… reaches `stepPeak` once per step.
                let s = sin(2 * Float.pi * 2 * t)
                z = 1 + (stepPeak - 1) * s
            }
            if let strongStep, abs(i - strongStep.index) < 3 { z = strongStep.peak - 0.2 * Float(abs(i - strongStep.index)) }
            samples.append(IMUSample(
                timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(noise(), noise(), z + noise()),
                angularRate: SIMD3(noise(), noise(), noise()) * 50))
        }
        return samples
    }

    static func candidates(in samples: [IMUSample]) throws -> [FallCandidate] {
        var builder = MotionFrameBuilder(sampleRate: rate)
        var tracker = try FallCandidateTracker(settings: settings())
        var found: [FallCandidate] = []
        var largest: Float = 0
        for s in samples {
            let f = builder.push(s)
            largest = max(largest, f.accelerationMagnitude)
            if let c = tracker.push(f) { found.append(c) }
        }
        return found
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func quietStandingGivesNoCandidate(_ seed: UInt64) throws {
        let samples = Self.imuTrace(seconds: 60, stepPeak: nil, seed: seed)
        #expect(try Self.candidates(in: samples).isEmpty)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func walkingAtOnePointThreeGGivesNoCandidateButAHardStepDoes(_ seed: UInt64) throws {
        let walking = Self.imuTrace(seconds: 60, stepPeak: 1.3, seed: seed)
        let peak = walking.map(\.accelerationMagnitude).max() ?? 0
        #expect(peak > 1.25 && peak < Self.settings().impactThreshold, "walking peak \(peak) g")
        #expect(try Self.candidates(in: walking).isEmpty)

        // The positive control: the same walk with one step at 2 g gives exactly one candidate.
        let stumble = Self.imuTrace(seconds: 60, stepPeak: 1.3, strongStep: (3000, 2), seed: seed)
        let found = try Self.candidates(in: stumble)
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.impactNanoseconds - 3000 * 10_000_000) <= 10_000_000 } == true)
    }

    // MARK: Allocation

    @Test func pushingFramesAllocatesNothingAfterInit() throws {
        #if canImport(Glibc)
        try #require(MallocCounter.isActive, "the allocation counter is blind")
        var builder = MotionFrameBuilder(sampleRate: Self.rate)
        var tracker = try FallCandidateTracker(settings: Self.settings())
        var candidates = 0
        var sink: Float = 0
        func step(_ i: Int) {
            // An impact every 10 s, so the measuring path runs too; a weightless dip before each.
            let phase = i % 1000
            let z: Float = phase == 500 ? 4 : (phase > 470 && phase < 500 ? 0.2 : 1 + 0.1 * sin(Float(i) * 0.3))
            let tilt = phase > 500 ? 1 : 0 as Float
            let frame = builder.push(IMUSample(
                timestampNanoseconds: Int64(i) * 10_000_000, acceleration: SIMD3(tilt * z, 0, (1 - tilt) * z),
                angularRate: SIMD3(1, 2, 3)))
            if let c = tracker.push(frame) {
                candidates += 1
                sink += c.tiltChange + c.activityBefore
            }
        }
        for i in 0..<2000 { step(i) }  // warm-up: the runtime sets up metadata once
        let before = candidates
        let allocations = MallocCounter.count {
            for i in 2000..<102_000 { step(i) }
        }
        blackHole(sink)
        #expect(candidates - before == 100, "the measuring path must run during the count")
        #expect(allocations == 0, "\(allocations) allocations in 10^5 frames")
        #endif
    }

    static func probeFrame(_ i: Int, _ m: Float) -> MotionFrame {
        MotionFrame(
            timestampNanoseconds: Int64(i) * 10_000_000, samplePeriod: 0.01, acceleration: SIMD3(0, 0, m), angularRateMagnitude: 0,
            tiltDegrees: 0, verticalAcceleration: 0, verticalVelocity: 0, saturated: false)
    }

    @Test func fallingStartsAtTheWeightlessStretchBeforeTheImpact() throws {
        var tracker = try FallCandidateTracker(settings: FallCandidateSettings(sampleRate: 100))
        var magnitudes = [Float](repeating: 1, count: 800)
        let p = 500
        magnitudes[p - 80] = 0.55  // one walking trough, 0.8 s before the impact, then 0.5 s at 1 g
        for i in (p - 30)..<p { magnitudes[i] = 0.2 }  // the weightless stretch
        magnitudes[p] = 4
        var found: FallCandidate?
        for (i, m) in magnitudes.enumerated() { if let c = tracker.push(Self.probeFrame(i, m)) { found = c } }
        let c = try #require(found)
        #expect(abs(c.fallingStartNanoseconds - Int64(p - 30) * 10_000_000) < 1_000)
    }

    @Test func withoutWeightlessnessFallingStartsAtTheMinimumNotAtTheImpact() throws {
        var tracker = try FallCandidateTracker(settings: FallCandidateSettings(sampleRate: 100))
        var magnitudes = [Float](repeating: 1, count: 800)
        let p = 500
        magnitudes[p - 40] = 0.7  // the minimum, above the 0.6 g free-fall threshold
        magnitudes[p] = 4
        var found: FallCandidate?
        for (i, m) in magnitudes.enumerated() { if let c = tracker.push(Self.probeFrame(i, m)) { found = c } }
        let c = try #require(found)
        #expect(c.fallingStartNanoseconds < c.impactNanoseconds)
        #expect(abs(c.fallingStartNanoseconds - Int64(p - 40) * 10_000_000) < 1_000)
    }

    /// The body turning from upright onto its back (up: +z, then +x) is a 90° attitude change,
    /// whatever the tilt says; |ω| in the posture window is its largest value there.
    @Test func attitudeChangeAndRotationAfterTheImpact() throws {
        var tracker = try FallCandidateTracker(settings: FallCandidateSettings(sampleRate: 100))
        let p = 400
        var found: FallCandidate?
        for i in 0..<(p + 100) {
            let lying = i > p
            let up = lying ? SIMD3<Float>(1, 0, 0) : SIMD3<Float>(0, 0, 1)
            let rate: Float = i == p + 30 ? 120 : (lying ? 5 : 0)
            let frame = MotionFrame(
                timestampNanoseconds: Int64(i) * 10_000_000, samplePeriod: 0.01, acceleration: SIMD3(0, 0, i == p ? 4 : 1),
                angularRateMagnitude: rate, tiltDegrees: lying ? 90 : 0, verticalAcceleration: 0, verticalVelocity: 0, saturated: false,
                gravity: up)
            if let c = tracker.push(frame) { found = c }
        }
        let c = try #require(found)
        #expect(abs(c.attitudeChange - 90) < 1e-3)
        #expect(c.peakAngularRateAfter == 120)
        #expect(abs(c.features[12] - 90) < 1e-3)
    }
}

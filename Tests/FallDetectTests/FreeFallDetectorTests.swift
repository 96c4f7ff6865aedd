import Testing

@testable import FallDetect

@Suite struct FreeFallDetectorTests {
    static func frame(_ i: Int, _ m: Float, rate: Float = 100) -> MotionFrame {
        MotionFrame(
            timestampNanoseconds: Int64((Double(i) / Double(rate) * 1e9).rounded()), samplePeriod: 1 / rate, acceleration: SIMD3(0, 0, m),
            angularRateMagnitude: 0, tiltDegrees: 0, verticalAcceleration: m - 1, verticalVelocity: 0, saturated: false)
    }

    /// Detections over 1 g, then `weightless` samples at 0.1 g, then 1 g again.
    static func run(_ stretches: [Int], rate: Float = 100) throws -> [DetectionEvent] {
        var detector = try FreeFallDetector()
        var events: [DetectionEvent] = []
        var i = 0
        for n in stretches {
            for _ in 0..<50 { if let e = detector.push(frame(i, 1, rate: rate)) { events.append(e) }; i += 1 }
            for _ in 0..<n { if let e = detector.push(frame(i, 0.1, rate: rate)) { events.append(e) }; i += 1 }
        }
        return events
    }

    @Test func aLongDropIsDetectedOnceWhenItHasLastedLongEnough() throws {
        let events = try Self.run([60])
        #expect(events.count == 1)
        let e = try #require(events.first)
        #expect(e.kind == .freeFall)
        // 40 samples at 100 Hz cover 0.4 s: the 40th weightless sample (index 50 + 39) decides.
        #expect(e.timestampNanoseconds == Self.frame(89, 0).timestampNanoseconds)
        #expect(e.phase(.falling) == Self.frame(50, 0).timestampNanoseconds)
        #expect(abs((e.evidence.freeFallSeconds ?? 0) - 0.4) < 1e-4)
        #expect(e.evidence.minimumAcceleration == 0.1)
    }

    /// Low readings on both sides of a break in the samples (0.42 s: a FIFO overflow at 200 Hz)
    /// are two short stretches, not 0.7 s of free fall.
    @Test func aBreakInTheSamplesIsNotWeightlessness() throws {
        var detector = try FreeFallDetector()
        var frames = (0..<30).map { Self.frame($0, 0.1) } + (72..<100).map { Self.frame($0, 0.1) }
        frames[30].afterGap = true
        #expect(frames.compactMap { detector.push($0) }.isEmpty)
    }

    @Test func shortStretchesDoNotAddUp() throws {
        #expect(try Self.run([39]).isEmpty)
        #expect(try Self.run([30, 30, 30]).isEmpty)
        #expect(try Self.run([39, 41]).count == 1)
        #expect(try Self.run([45, 45]).count == 2)
        // At 1 kHz the same 0.4 s is 400 samples.
        #expect(try Self.run([399], rate: 1000).isEmpty)
        #expect(try Self.run([400], rate: 1000).count == 1)
    }

    @Test func parametersAreValidated() {
        #expect { try FreeFallDetector(parameters: FreeFallParameters(threshold: 1.2)) } throws: { ($0 as? FallDetectError)?.field == "threshold" }
        #expect { try FreeFallDetector(parameters: FreeFallParameters(minimumSeconds: -1)) } throws: {
            ($0 as? FallDetectError)?.field == "minimumSeconds"
        }
    }
}

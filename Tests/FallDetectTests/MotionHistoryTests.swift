import Testing

@testable import FallDetect

@Suite struct MotionHistoryTests {
    static func frame(_ magnitude: Float, tilt: Float = 0, velocity: Float = 0, rate: Float = 0) -> MotionFrame {
        MotionFrame(
            timestampNanoseconds: 0, samplePeriod: 0.01, acceleration: SIMD3(0, 0, magnitude), angularRateMagnitude: rate,
            tiltDegrees: tilt, verticalAcceleration: 0, verticalVelocity: velocity, saturated: false)
    }

    @Test func holdsTheLastCapacityEntries() {
        var h = MotionHistory(capacity: 5)
        for i in 0..<12 { h.push(Self.frame(Float(i), tilt: Float(10 * i))) }
        #expect(h.count == 12)
        #expect(h.capacity == 5)
        #expect(h.entry(6) == nil)  // evicted
        #expect(h.entry(7)?.magnitude == 7)
        #expect(h.entry(11)?.tilt == 110)
        #expect(h.entry(12) == nil)  // not yet pushed
        #expect(h.entry(-1) == nil)
    }

    @Test func summaryOverAKnownSpan() throws {
        var h = MotionHistory(capacity: 10)
        let magnitudes: [Float] = [1, 0.5, 2, 1.5, 1]
        let tilts: [Float] = [10, 20, 30, 40, 50]
        for i in 0..<5 { h.push(Self.frame(magnitudes[i], tilt: tilts[i], velocity: -Float(i), rate: Float(100 - 10 * i))) }
        let s = try #require(h.summary(1..<4))  // 0.5, 2, 1.5
        #expect(s.count == 3)
        #expect(s.minimumMagnitude == 0.5 && s.maximumMagnitude == 2)
        #expect(s.meanTilt == 30)
        #expect(s.maximumTilt == 40)
        #expect(s.minimumVerticalVelocity == -3)
        #expect(s.maximumAngularRate == 90)
        // Mean 4/3; population std of (0.5, 2, 1.5); mean ||a| − 1| = (0.5 + 1 + 0.5) / 3.
        let span: [Double] = [0.5, 2, 1.5]
        let mean = span.reduce(0, +) / 3
        let std = (span.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 3).squareRoot()
        #expect(abs(Double(s.magnitudeDeviation) - std) < 1e-6)
        #expect(abs(s.meanAbsoluteDeviation - 2.0 / 3) < 1e-6)
    }

    @Test func summaryClampsToWhatIsHeld() throws {
        var h = MotionHistory(capacity: 4)
        for i in 0..<10 { h.push(Self.frame(Float(i))) }
        let s = try #require(h.summary(-5..<100))  // only 6…9 are held
        #expect(s.count == 4)
        #expect(s.minimumMagnitude == 6 && s.maximumMagnitude == 9)
        #expect(h.summary(0..<6) == nil)
        #expect(h.summary(10..<12) == nil)
        #expect(h.summary(7..<7) == nil)
    }
}

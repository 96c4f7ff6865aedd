import Foundation
import Testing

@testable import FallDetect

/// The per-sample paths of the AHRS and feature wrappers allocate nothing: allocations counted
/// around 10^5 samples, with a positive control so the counter cannot be silently blind.
@Suite struct PerSampleAllocationTests {
    static var counterActive: Bool {
        #if canImport(Glibc)
        MallocCounter.isActive
        #else
        false
        #endif
    }

    /// The positive control: a counter that sees nothing would pass every test below.
    @Test func counterSeesAllocations() {
        #if canImport(Glibc)
        #expect(Self.counterActive, "the GOT redirection did not take effect")
        let n = MallocCounter.count {
            for i in 0..<100 { blackHole([Int](repeating: i, count: 8)) }
        }
        #expect(n >= 100)
        #endif
    }

    @Test func hundredThousandSamplesAllocateNothing() {
        #if canImport(Glibc)
        var ahrs = AHRS(settings: AHRSSettings(sampleRate: 200))
        var bias = GyroscopeBias(settings: .init(sampleRate: 200))
        var lowPass = ButterworthLowPass(cutoff: 5, sampleRate: 200)!
        var stats = SlidingStatistics(window: 200)
        var extrema = SlidingExtrema(window: 200)
        var jerk = JerkEstimator()
        var velocity = VerticalVelocityEstimator()
        var multi = MultiStreamAHRS(streams: 16, settings: AHRSSettings(sampleRate: 200))
        let batch = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: 16)
        batch.initialize(repeating: IMUSample(timestampNanoseconds: 0, acceleration: SIMD3(0, 0, 1)))
        defer { batch.deallocate() }
        var sink: Float = 0
        func step(_ i: Int) {
            let t = Float(i) * 0.005
            let a = SIMD3<Float>(0.2 * sin(t), 0.1, 1 + (i % 1000 < 20 ? 3 : 0))
            let g = bias.update(SIMD3(20 * sin(t), 5, -3))
            ahrs.update(angularRate: g, acceleration: a)
            let out = ahrs.output
            let f = lowPass.filter(a)
            let s = stats.push(f)
            let e = extrema.push(JerkEstimator.signalMagnitude(a))
            let j = jerk.push(a, samplePeriod: 0.005)
            let v = velocity.push(earthAccelerationZ: out.earthAcceleration.z, samplePeriod: 0.005)
            if i % 16 == 0 { multi.update(UnsafeBufferPointer(batch)) }
            sink += s.standardDeviation.x + e.maximum + j.magnitude + v + out.tiltDegrees
        }
        // Warm-up outside the count: the Swift runtime allocates some type metadata lazily, once.
        for i in 0..<1000 { step(i) }
        let allocations = MallocCounter.count {
            for i in 1000..<101_000 { step(i) }
        }
        blackHole(sink)
        #expect(allocations == 0, "\(allocations) allocations in 10^5 samples")
        #endif
    }
}

import Foundation
import Testing

@testable import FallDetect

@Suite struct SisFallFeatureStreamTests {
    /// Runs a stream over accelerations and returns every output.
    func run(_ feature: SisFallFeature, _ input: [SIMD3<Float>], parameters: SisFallFeatureParameters = .init()) throws -> [Float?] {
        var stream = try SisFallFeatureStream(feature, parameters: parameters)
        return input.map { stream.push($0) }
    }

    /// A belt unit at rest: no deviation, no peak-to-peak; the horizontal magnitude is the tilt's.
    @Test func constantSignal() throws {
        let a = SIMD3<Float>(0.3, -0.4, 0.87)
        let input = [SIMD3<Float>](repeating: a, count: 600)
        let horizontal: Float = 0.5  // √(0.3² + 0.4²)
        for feature in [SisFallFeature.c3, .c8, .c9] {
            let last = try #require(try run(feature, input).last ?? nil)
            #expect(abs(last) < 1e-4, "\(feature) = \(last)")
        }
        let c2 = try #require(try run(.c2, input).last ?? nil)
        #expect(abs(c2 - horizontal) < 1e-5)
        let c13 = try #require(try run(.c13, input).last ?? nil)
        #expect(abs(c13 - horizontal * 1) < 1e-4, "0.5 g for 1 s is 0.5 g·s, got \(c13)")
    }

    /// A 1 Hz sinusoid of amplitude A on body x (inside the 5 Hz pass band; the window holds one
    /// whole period): std = A/√2, peak-to-peak 2A on one axis of three.
    @Test func sinusoid() throws {
        let amplitude: Float = 0.8
        let input = (0..<1000).map { i in
            SIMD3<Float>(amplitude * Float(sin(2 * Double.pi * Double(i) / 200)), 0, 1)
        }
        let expectedStd = amplitude / Float(2).squareRoot()
        let c8 = try #require(try run(.c8, input).last ?? nil)
        let c9 = try #require(try run(.c9, input).last ?? nil)
        #expect(abs(c8 - expectedStd) / expectedStd < 0.01, "C8 \(c8) vs \(expectedStd)")
        #expect(abs(c9 - expectedStd) / expectedStd < 0.01, "C9 \(c9) vs \(expectedStd)")
        let c3 = try #require(try run(.c3, input).last ?? nil)
        let expectedPeakToPeak = 2 * amplitude / Float(3).squareRoot()
        #expect(abs(c3 - expectedPeakToPeak) / expectedPeakToPeak < 0.01, "C3 \(c3) vs \(expectedPeakToPeak)")
    }

    /// Vertical motion is outside the horizontal plane: C8 ignores it, C9 does not.
    @Test func horizontalPlaneIsBodyXAndY() throws {
        let input = (0..<1000).map { i in
            SIMD3<Float>(0, 0, 1 + 0.5 * Float(sin(2 * Double.pi * Double(i) / 200)))
        }
        let c8 = try #require(try run(.c8, input).last ?? nil)
        let c9 = try #require(try run(.c9, input).last ?? nil)
        #expect(c8 < 1e-4)
        #expect(c9 > 0.3)
    }

    /// The value at sample n depends on samples 0…n only.
    @Test(arguments: SisFallFeature.allCases) func causal(feature: SisFallFeature) throws {
        var random = SplitMix64(seed: 4)
        func r(_ range: ClosedRange<Double>) -> Float { Float(random.uniform(range)) }
        let prefix = (0..<500).map { _ in SIMD3<Float>(r(-2...2), r(-2...2), r(-2...2)) }
        let tailA = (0..<300).map { _ in SIMD3<Float>(r(-2...2), 0, 1) }
        let tailB = (0..<300).map { _ in SIMD3<Float>(0, r(-8...8), -1) }
        let a = try run(feature, prefix + tailA)
        let b = try run(feature, prefix + tailB)
        #expect(Array(a[..<500]) == Array(b[..<500]))
        #expect(Array(a[500...]) != Array(b[500...]))
    }

    /// Whole windows only (the paper's): nil for the first 199 samples at 200 Hz, except C2.
    @Test func waitsForTheFirstWindow() throws {
        let input = [SIMD3<Float>](repeating: SIMD3(0, 0, 1), count: 201)
        for feature in [SisFallFeature.c3, .c8, .c9, .c13] {
            let out = try run(feature, input)
            #expect(out[198] == nil && out[199] != nil, "\(feature)")
        }
        #expect(try run(.c2, input)[0] != nil)
        let short = [IMUSample](repeating: IMUSample(timestampNanoseconds: 0, acceleration: SIMD3(0, 0, 1)), count: 100)
        #expect(try SisFallFeatureStream.maximum(of: .c8, over: short) == nil)
    }

    @Test func maximumIsTheLargestWindow() throws {
        var samples = [IMUSample](repeating: IMUSample(timestampNanoseconds: 0, acceleration: SIMD3(0, 0, 1)), count: 800)
        for i in 400..<440 { samples[i].acceleration = SIMD3(1.5, 0, 1) }
        let score = try #require(try SisFallFeatureStream.maximum(of: .c8, over: samples))
        let outputs = try run(.c8, samples.map(\.acceleration)).compactMap { $0 }
        #expect(score == outputs.max())
        #expect(score > 0.2)
    }

    @Test func rejectsParametersItCannotHonour() {
        #expect(throws: FallDetectError.self) { _ = try SisFallFeatureStream(.c8, parameters: .init(cutoffHertz: 150)) }
        #expect(throws: FallDetectError.self) { _ = try SisFallFeatureStream(.c8, parameters: .init(windowSeconds: 0)) }
        #expect(throws: FallDetectError.self) { _ = try SisFallFeatureStream(.c8, parameters: .init(sampleRateHertz: .nan)) }
        #expect(SisFallFeatureParameters().windowSamples == 200)
    }

    /// `push` allocates nothing: the windows are allocated once in `init` (counted over 10^5 samples
    /// per feature; PerSampleAllocationTests holds the counter's positive control).
    @Test func pushAllocatesNothing() throws {
        #if canImport(Glibc)
        guard MallocCounter.isActive else { return }
        for feature in SisFallFeature.allCases {
            var stream = try SisFallFeatureStream(feature)
            var sink: Float = 0
            let n = MallocCounter.count {
                for i in 0..<100_000 {
                    sink += stream.push(SIMD3(Float(i % 7) * 0.1, 0, 1)) ?? 0
                }
            }
            blackHole(sink)
            #expect(n == 0, "\(feature): \(n) allocations")
        }
        #endif
    }
}

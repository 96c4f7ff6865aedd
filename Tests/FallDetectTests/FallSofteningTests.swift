import Testing

@testable import FallDetect

/// The bench's stress test: a fall's departures from 1 g scaled, around the fall only.
@Suite struct FallSofteningTests {
    /// 400 samples at 200 Hz along body z: 1 g, a 0.2 g dip at 180, a 6 g impact at 200 and a
    /// 5 g bump at 300 (after the window); labelled FALL from 170 to 210.
    static func trial(_ code: String, labelled: Bool = true) throws -> SisFallTrial {
        var samples = (0..<400).map { IMUSample(timestampNanoseconds: Int64($0) * 5_000_000, acceleration: SIMD3(0, 0, 1)) }
        samples[180].acceleration = SIMD3(0, 0, 0.2)
        samples[200].acceleration = SIMD3(0, 3.6, 4.8)  // 6 g, not along an axis
        samples[300].acceleration = SIMD3(0, 0, 5)
        let labels = (0..<400).map { (170...210).contains($0) ? UInt8(2) : 0 }
        return SisFallTrial(
            name: try SisFallTrialName(parsing: "\(code)_SA01_R01"), path: "p", samples: samples,
            mma8451qAcceleration: Array(repeating: .zero, count: 400), labels: labelled ? labels : nil)
    }

    static func magnitude(_ s: IMUSample) -> Float { (s.acceleration * s.acceleration).sum().squareRoot() }

    @Test func theFallIsSoftenedAndNothingElse() throws {
        let trial = try Self.trial("F01")
        let soft = try FallSoftening(scale: 0.5).apply(to: trial)
        #expect(abs(Self.magnitude(soft[200]) - 3.5) < 1e-5)
        #expect(abs(Self.magnitude(soft[180]) - 0.6) < 1e-5)
        // The direction stays.
        #expect(abs(soft[200].acceleration.y / soft[200].acceleration.z - 0.75) < 1e-5)
        // Outside 0.1 s before the fall to 0.3 s after the impact, untouched.
        #expect(soft[300] == trial.samples[300] && soft[149] == trial.samples[149])
        #expect(zip(soft, trial.samples).allSatisfy { $0.timestampNanoseconds == $1.timestampNanoseconds && $0.angularRate == $1.angularRate })
        // A scale of 1 changes nothing.
        #expect(try FallSoftening(scale: 1).apply(to: trial).map(\.acceleration) == trial.samples.map(\.acceleration))
    }

    @Test func activitiesAndUnlabelledFallsAreLeftAlone() throws {
        let softening = try FallSoftening(scale: 0.3)
        for trial in [try Self.trial("D01"), try Self.trial("F01", labelled: false)] {
            #expect(softening.apply(to: trial) == trial.samples, "\(trial.name)")
        }
    }

    @Test(arguments: [Float(0), -0.5, 1.01, .nan])
    func aScaleOutsideZeroToOneIsNamed(_ scale: Float) {
        let error = #expect(throws: FallDetectError.self) { try FallSoftening(scale: scale) }
        #expect(error?.field == "soften")
    }
}

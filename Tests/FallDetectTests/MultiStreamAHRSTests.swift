import CFusion
import Foundation
import Testing

@testable import FallDetect

@Suite struct MultiStreamAHRSTests {
    /// Deterministic, varied motion for stream `s` at step `t`: impacts, zero readings and
    /// gyroscope clipping land on different steps in different streams.
    static func sample(stream s: Int, step t: Int) -> (gyro: SIMD3<Float>, accel: SIMD3<Float>) {
        let x = Float(t) / 200 + Float(s) * 0.37
        var gyro = SIMD3<Float>(90 * sin(1.7 * x), 60 * cos(0.9 * x + Float(s)), 45 * sin(0.5 * x))
        var accel = SIMD3<Float>(0.3 * sin(2.1 * x), 0.2 * cos(1.3 * x), 1 + 0.1 * sin(4 * x))
        if (t + 37 * s) % 900 < 25 { accel *= 4 }
        if (t + 11 * s) % 1500 == 0 { accel = .zero }
        if (t + 53 * s) % 2500 < 3 { gyro.y = 1990 }
        return (gyro, accel)
    }

    /// Every kernel this CPU has, against the one-stream filter.
    @Test func everyKernelMatchesOneStreamFilter() {
        let steps = 6000
        var settings = AHRSSettings(sampleRate: 200).raw
        var input = [cfusion_ahrs_lanes_input](repeating: cfusion_ahrs_lanes_input(), count: steps)
        var periods = [Float](repeating: 0, count: steps * 16)
        for t in 0..<steps {
            withUnsafeMutableBytes(of: &input[t]) { bytes in
                let f = bytes.bindMemory(to: Float.self)
                for l in 0..<16 {
                    let (g, a) = Self.sample(stream: l, step: t)
                    (f[l], f[16 + l], f[32 + l], f[48 + l], f[64 + l], f[80 + l]) = (g.x, g.y, g.z, a.x, a.y, a.z)
                    periods[t * 16 + l] = 0.005 * (1 + 0.02 * sin(Float(t * 7 + l)))
                }
            }
        }
        var singles: [cfusion_ahrs] = []
        for l in 0..<16 {
            var one = cfusion_ahrs()
            cfusion_ahrs_init(&one, &settings)
            for t in 0..<steps {
                let (g, a) = Self.sample(stream: l, step: t)
                cfusion_ahrs_set_sample_period(&one, periods[t * 16 + l])
                cfusion_ahrs_update(&one, cfusion_vec3(x: g.x, y: g.y, z: g.z), cfusion_vec3(x: a.x, y: a.y, z: a.z))
            }
            singles.append(one)
        }
        let best = cfusion_ahrs_lanes_best_kernel()
        for kernel in [CFUSION_AHRS_LANES_BASELINE, CFUSION_AHRS_LANES_AVX2, CFUSION_AHRS_LANES_AVX512]
        where kernel.rawValue <= best.rawValue {
            var lanes = cfusion_ahrs_lanes()
            cfusion_ahrs_lanes_init(&lanes, &settings)
            let ran = cfusion_ahrs_lanes_update_kernel(&lanes, input, steps, periods, nil, kernel)
            #expect(ran == kernel)
            for l in 0..<16 {
                var one = singles[l]
                var lane = cfusion_ahrs_lanes_extract(&lanes, Int32(l))
                let angle = cfusion_quat_angle_deg(one.q, lane.q)
                // Baseline is the scalar code lane by lane; AVX kernels fuse multiply-adds.
                #expect(angle < (kernel == CFUSION_AHRS_LANES_BASELINE ? 1e-6 : 0.02), "kernel \(kernel.rawValue) lane \(l): \(angle)°")
                let a = AHRSFlags(cfusion_ahrs_get_flags(&one)), b = AHRSFlags(cfusion_ahrs_get_flags(&lane))
                #expect(a == b, "kernel \(kernel.rawValue) lane \(l)")
            }
        }
    }

    @Test func swiftWrapperMatchesOneStreamAHRS() {
        let streams = 21  // two blocks, the second partly used
        let settings = AHRSSettings(sampleRate: 200)
        var multi = MultiStreamAHRS(streams: streams, settings: settings)
        var singles = [AHRS](repeating: AHRS(settings: settings), count: streams)
        var samples = [IMUSample](repeating: IMUSample(timestampNanoseconds: 0, acceleration: .zero), count: streams)
        for t in 0..<3000 {
            for s in 0..<streams {
                let (g, a) = Self.sample(stream: s, step: t)
                samples[s] = IMUSample(timestampNanoseconds: Int64(t) * 5_000_000, acceleration: a, angularRate: g)
                singles[s].update(samples[s])
            }
            samples.withUnsafeBufferPointer { multi.update($0) }
        }
        for s in 0..<streams {
            #expect(multi.quaternion(stream: s).angle(to: singles[s].quaternion) < 0.02)
            #expect(multi.output(stream: s).flags == singles[s].output.flags)
        }
        #expect(["avx512", "avx2", "baseline"].contains(MultiStreamAHRS.kernel))
    }

    @Test func wholeRecordingsMatchOneStreamAHRS() {
        let streams = 19, steps = 2500
        let settings = AHRSSettings(sampleRate: 200)
        let recordings = (0..<streams).map { s in
            (0..<(steps + s)).map { t in
                let (g, a) = Self.sample(stream: s, step: t)
                return IMUSample(timestampNanoseconds: Int64(t) * 5_000_000, acceleration: a, angularRate: g)
            }
        }
        var multi = MultiStreamAHRS(streams: streams, settings: settings)
        let buffers = recordings.map { r -> UnsafeBufferPointer<IMUSample> in
            let copy = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: r.count)
            _ = copy.initialize(from: r)
            return UnsafeBufferPointer(copy)
        }
        defer { buffers.forEach { $0.deallocate() } }
        multi.update(recordings: buffers, steps: steps)
        for s in 0..<streams {
            var one = AHRS(settings: settings)
            for t in 0..<steps { one.update(recordings[s][t]) }
            #expect(multi.quaternion(stream: s).angle(to: one.quaternion) < 0.02)
            #expect(multi.output(stream: s).flags == one.output.flags)
        }
    }
}

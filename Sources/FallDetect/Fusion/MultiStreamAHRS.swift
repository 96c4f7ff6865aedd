import CFusion

/// Many independent ``AHRS`` streams updated together in SIMD lanes (16 per block, structure of
/// arrays; AVX-512, AVX2 or SSE2 on x86-64 chosen at run time, NEON on arm64), for evaluating
/// datasets. Every stream sees exactly the one-stream filter (agreement to float rounding).
///
/// Noncopyable: it owns its lane blocks, allocated once in `init`; updates never allocate.
public struct MultiStreamAHRS: ~Copyable {
    public let streamCount: Int
    public let settings: AHRSSettings
    let blockCount: Int
    let blocks: UnsafeMutablePointer<cfusion_ahrs_lanes>
    let input: UnsafeMutablePointer<cfusion_ahrs_lanes_input>
    let periods: UnsafeMutablePointer<Float>

    public init(streams: Int, settings: AHRSSettings = AHRSSettings()) {
        precondition(streams > 0, "at least one stream")
        streamCount = streams
        self.settings = settings
        blockCount = (streams + Int(CFUSION_AHRS_LANES) - 1) / Int(CFUSION_AHRS_LANES)
        blocks = .allocate(capacity: blockCount)
        input = .allocate(capacity: blockCount)
        input.initialize(repeating: cfusion_ahrs_lanes_input(), count: blockCount)
        periods = .allocate(capacity: blockCount * Int(CFUSION_AHRS_LANES))
        periods.initialize(repeating: 1 / settings.sampleRate, count: blockCount * Int(CFUSION_AHRS_LANES))
        var s = settings.raw
        for b in 0..<blockCount {
            cfusion_ahrs_lanes_init(blocks + b, &s)
        }
    }

    deinit {
        blocks.deallocate()
        input.deallocate()
        periods.deallocate()
    }

    /// The implementation in use on this CPU: "avx512", "avx2" or "baseline" (SSE2 / NEON).
    public static var kernel: String {
        switch cfusion_ahrs_lanes_best_kernel() {
        case CFUSION_AHRS_LANES_AVX512: "avx512"
        case CFUSION_AHRS_LANES_AVX2: "avx2"
        default: "baseline"
        }
    }

    /// One update of every stream: `samples[i]` (body frame) goes to stream i; `samples.count`
    /// must equal ``streamCount``. `samplePeriods`, when given, holds one period per stream.
    public mutating func update(_ samples: UnsafeBufferPointer<IMUSample>, samplePeriods: UnsafeBufferPointer<Float>? = nil) {
        precondition(samples.count == streamCount, "one sample per stream")
        let lanes = Int(CFUSION_AHRS_LANES)
        for b in 0..<blockCount {
            let lo = b * lanes
            let hi = min(lo + lanes, streamCount)
            do {
                // A raw pointer rather than withUnsafeMutableBytes: the latter crashes the 6.3
                // compiler under -sanitize=thread. The lane input is floats only, so the view is exact.
                let f = UnsafeMutableRawPointer(input + b).assumingMemoryBound(to: Float.self)
                for i in lo..<hi {
                    let r = samples[i].raw
                    let l = i - lo
                    f[l] = r.gx
                    f[lanes + l] = r.gy
                    f[2 * lanes + l] = r.gz
                    f[3 * lanes + l] = r.ax
                    f[4 * lanes + l] = r.ay
                    f[5 * lanes + l] = r.az
                }
            }
            var p: UnsafePointer<Float>? = nil
            if let periodsIn = samplePeriods {
                precondition(periodsIn.count == streamCount, "one period per stream")
                for i in lo..<hi { periods[i] = periodsIn[i] }
                p = UnsafePointer(periods + lo)
            }
            cfusion_ahrs_lanes_update(blocks + b, input + b, 1, p, nil)
        }
    }

    /// Runs `steps` updates of every stream from whole recordings at once (the dataset path):
    /// stream i reads `recordings[i][0..<steps]`, body frame, nominal sample period. Recordings
    /// must hold at least `steps` samples; pass ``streamCount`` of them.
    public mutating func update(recordings: [UnsafeBufferPointer<IMUSample>], steps: Int) {
        precondition(recordings.count == streamCount, "one recording per stream")
        precondition(recordings.allSatisfy { $0.count >= steps }, "recordings shorter than steps")
        let lanes = Int(CFUSION_AHRS_LANES)
        withUnsafeTemporaryAllocation(of: UnsafePointer<cfusion_sample>?.self, capacity: lanes) { pointers in
            for b in 0..<blockCount {
                for l in 0..<lanes {
                    let i = b * lanes + l
                    pointers[l] = i < streamCount
                        ? recordings[i].baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: cfusion_sample.self) }
                        : nil
                }
                cfusion_ahrs_lanes_update_streams(blocks + b, pointers.baseAddress, steps)
            }
        }
    }

    public func quaternion(stream: Int) -> Quaternion {
        precondition(stream >= 0 && stream < streamCount)
        var one = cfusion_ahrs_lanes_extract(blocks + stream / Int(CFUSION_AHRS_LANES), Int32(stream % Int(CFUSION_AHRS_LANES)))
        return Quaternion(cfusion_ahrs_quaternion(&one))
    }

    /// Outputs and flags of one stream after the last update.
    public func output(stream: Int) -> AHRSOutput {
        precondition(stream >= 0 && stream < streamCount)
        var one = cfusion_ahrs_lanes_extract(blocks + stream / Int(CFUSION_AHRS_LANES), Int32(stream % Int(CFUSION_AHRS_LANES)))
        return AHRSOutput(cfusion_ahrs_get_output(&one))
    }

    /// Restarts every stream.
    public mutating func restart() {
        var s = settings.raw
        for b in 0..<blockCount {
            cfusion_ahrs_lanes_init(blocks + b, &s)
        }
    }
}

import CFusion

/// Mean, variance and standard deviation of the last `window` samples per axis, O(1) per sample
/// (Welford add/remove in Double, recomputed from the window every 64 window lengths so rounding
/// cannot build up). Variance is the population variance (÷ n, numpy's default); before the
/// window fills, the statistics cover the samples so far.
///
/// Noncopyable: it owns its window, allocated once in `init`.
public struct SlidingStatistics: ~Copyable {
    public struct Summary: Sendable, Equatable {
        public var mean: SIMD3<Float>
        public var variance: SIMD3<Float>
        public var standardDeviation: SIMD3<Float>

        init(_ s: cfusion_stats3) {
            mean = SIMD3(s.mean.x, s.mean.y, s.mean.z)
            variance = SIMD3(s.variance.x, s.variance.y, s.variance.z)
            standardDeviation = SIMD3(s.stddev.x, s.stddev.y, s.stddev.z)
        }
    }

    var state: cfusion_sliding_stats
    let storage: UnsafeMutableRawPointer
    public let window: Int

    /// `window` ≥ 1 samples of 3 axes.
    public init(window: Int) {
        precondition(window >= 1 && window <= Int(UInt32.max / 3), "window out of range")
        self.window = window
        let bytes = cfusion_sliding_stats_storage_bytes(UInt32(window), 3)
        storage = .allocate(byteCount: bytes, alignment: MemoryLayout<Float>.alignment)
        state = cfusion_sliding_stats()
        _ = cfusion_sliding_stats_init(&state, storage, UInt32(window), 3)
    }

    deinit { storage.deallocate() }

    /// Samples currently in the window (≤ window).
    public var count: Int { Int(state.count) }

    /// Adds a sample and returns the statistics of the window that now ends with it.
    public mutating func push(_ v: SIMD3<Float>) -> Summary {
        Summary(cfusion_sliding_stats_push(&state, cfusion_vec3(x: v.x, y: v.y, z: v.z)))
    }

    public var summary: Summary {
        var copy = state
        return Summary(cfusion_sliding_stats_get(&copy))
    }
}

import CFusion

/// Maximum and minimum of the last `window` samples of one signal (e.g. |a|), O(1) amortised per
/// sample: two monotonic deques in fixed rings. NaN samples are skipped.
///
/// Noncopyable: it owns its rings, allocated once in `init`.
public struct SlidingExtrema: ~Copyable {
    var state: cfusion_sliding_extrema
    let storage: UnsafeMutableRawPointer
    public let window: Int

    public init(window: Int) {
        precondition(window >= 1 && window <= Int(Int32.max), "window out of range")
        self.window = window
        let bytes = cfusion_sliding_extrema_storage_bytes(UInt32(window))
        storage = .allocate(byteCount: bytes, alignment: MemoryLayout<cfusion_extrema_entry>.alignment)
        state = cfusion_sliding_extrema()
        _ = cfusion_sliding_extrema_init(&state, storage, UInt32(window))
    }

    deinit { storage.deallocate() }

    /// Adds a sample; returns the window's maximum and minimum (NaN before any sample).
    public mutating func push(_ x: Float) -> (maximum: Float, minimum: Float) {
        let e = cfusion_sliding_extrema_push(&state, x)
        return (e.max, e.min)
    }
}

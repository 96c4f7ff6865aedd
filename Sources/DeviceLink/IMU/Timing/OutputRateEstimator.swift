/// Measures a chip's real output rate from what it delivers: samples drained against the time
/// between drains, over windows long enough that one sample's rounding is noise (a crystal-less
/// board's rate is off by up to a few percent and moves with temperature). Each finished window
/// is blended into the estimate, so it follows slow drift without jumping on one late drain.
public struct OutputRateEstimator: Sendable {
    public let nominalHz: Double
    /// Seconds per window; at 200 Hz one window of 5 s counts 1000 samples, so a ±1 sample
    /// rounding is 0.1 %.
    public let windowSeconds: Double
    /// Weight of a new window in the estimate.
    public let blend: Double
    /// Estimates further than this from nominal are refused: a chip that far off is set wrong,
    /// and trusting it would stretch every timestamp.
    public let tolerance: Double
    public private(set) var estimateHz: Double?
    private var windowStart: Int64?
    private var windowSamples = 0

    public init(nominalHz: Double, windowSeconds: Double = 5, blend: Double = 0.3, tolerance: Double = 0.1) {
        self.nominalHz = nominalHz
        self.windowSeconds = windowSeconds
        self.blend = blend
        self.tolerance = tolerance
    }

    /// The rate to stamp with: the estimate, or nominal until there is one.
    public var rateHz: Double { estimateHz ?? nominalHz }

    /// A drain at `now` took `count` samples, all produced since the previous drain.
    public mutating func drained(_ count: Int, at now: Int64) {
        guard let start = windowStart else {
            // The first drain holds samples from before any window began: it only opens one.
            windowStart = now
            windowSamples = 0
            return
        }
        windowSamples += count
        let elapsed = Double(now - start) / 1e9
        guard elapsed >= windowSeconds else { return }
        let measured = Double(windowSamples) / elapsed
        if abs(measured / nominalHz - 1) <= tolerance {
            estimateHz = estimateHz.map { $0 + blend * (measured - $0) } ?? measured
        }
        windowStart = now
        windowSamples = 0
    }

    /// Samples were lost or the chip restarted: the current window no longer counts them all.
    public mutating func restart() {
        windowStart = nil
        windowSamples = 0
    }
}

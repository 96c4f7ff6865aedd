import CFusion

/// 4th-order Butterworth low-pass as two cascaded biquads, designed for any cutoff and rate by the
/// bilinear transform with prewarping; the same sections as
/// `scipy.signal.butter(4, cutoff, fs=rate, output='sos')`. Three independent channels: the
/// `SIMD3` form filters x, y, z on channels 0, 1, 2; the scalar form uses channel 0.
/// Coefficients and state are Double inside, so low cutoffs stay accurate.
public struct ButterworthLowPass: Sendable {
    var state: cfusion_butter4
    public let cutoff: Double
    public let sampleRate: Double

    /// Nil unless 0 < cutoff < sampleRate / 2.
    public init?(cutoff: Double, sampleRate: Double) {
        state = cfusion_butter4()
        guard cfusion_butter4_design(&state, cutoff, sampleRate) == 1 else { return nil }
        self.cutoff = cutoff
        self.sampleRate = sampleRate
    }

    public mutating func filter(_ x: Float) -> Float {
        cfusion_butter4_step(&state, 0, x)
    }

    public mutating func filter(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let r = cfusion_butter4_step3(&state, cfusion_vec3(x: v.x, y: v.y, z: v.z))
        return SIMD3(r.x, r.y, r.z)
    }

    /// Zero state, as if the input had been 0 forever (scipy's sosfilt without zi).
    public mutating func reset() { cfusion_butter4_reset(&state) }

    /// State as if the input had always been `v` (scipy's `sosfilt_zi(sos) * v`): no start-up
    /// transient for a signal that starts away from zero, like an accelerometer at 1 g.
    public mutating func reset(steadyAt v: SIMD3<Float>) {
        cfusion_butter4_reset_steady(&state, 0, v.x)
        cfusion_butter4_reset_steady(&state, 1, v.y)
        cfusion_butter4_reset_steady(&state, 2, v.z)
    }

    /// The sections as scipy writes them: rows [b0, b1, b2, 1, a1, a2]. Allocates; not for the
    /// sample loop.
    public var secondOrderSections: [[Double]] {
        [state.section.0, state.section.1].map { [$0.b0, $0.b1, $0.b2, 1, $0.a1, $0.a2] }
    }
}

/// A stress test for slower falls (`detectord bench --slow S`): around a fall trial's labelled
/// fall, the body's motion is replayed S times slower, as a fall along the same path that took S
/// times as long would be recorded. The body passes through the same attitudes, so the angular
/// rate is divided by S; it covers the same path in S times the time, so the acceleration beyond
/// gravity is divided by S². Gravity's direction in the body frame comes from the AHRS run over
/// the trial as recorded. The rest of the trial follows unchanged, later by the added time, and
/// the labels stretch with it.
///
/// Older people's falls are slower and softer than young volunteers' onto a mat; unlike
/// `FallSoftening`, which the learned model also trains on, this transform is not in its training.
/// It is not a model of older people's falls either: it measures how much of a detector's
/// sensitivity rests on fast falls.
public struct FallSlowing: Sendable, Hashable {
    /// How many times longer the fall takes, in [1, 3].
    public let factor: Float
    /// Seconds before the first sample labelled FALL.
    public let lead: Float
    /// Seconds after the impact.
    public let follow: Float

    public init(factor: Float, lead: Float = 0.1, follow: Float = 0.3) throws(FallDetectError) {
        try FallDetectError.require(factor.isFinite && factor >= 1 && factor <= 3, "slow", "must lie in [1, 3], got \(factor)")
        try FallDetectError.requireNonNegative(lead, "lead")
        try FallDetectError.requireNonNegative(follow, "follow")
        self.factor = factor
        self.lead = lead
        self.follow = follow
    }

    /// The trial's samples and labels with its fall slowed; unchanged otherwise (ADL, no labels,
    /// or a factor of 1). Timestamps stay one sample period apart.
    public func apply(to trial: SisFallTrial) -> (samples: [IMUSample], labels: [UInt8]?) {
        guard factor > 1, let window = FallStressWindow.range(in: trial, lead: lead, follow: follow), window.count > 1 else {
            return (trial.samples, trial.labels)
        }
        let original = trial.samples
        var frames = MotionFrameBuilder(sampleRate: Float(1e9 / Double(SisFallTrial.samplePeriodNanoseconds)))
        var gravity: [SIMD3<Float>] = []
        gravity.reserveCapacity(window.upperBound)
        for s in original[..<window.upperBound] { gravity.append(frames.push(s).gravity) }
        // The window's first sample stays where it is; its last lands `factor` times as far on.
        let span = Float(window.count - 1)
        let stretched = Int((span * factor).rounded())
        var samples = Array(original[..<window.lowerBound])
        samples.reserveCapacity(original.count + stretched - Int(span))
        let rate = 1 / factor, dynamic = 1 / (factor * factor)
        for k in 0...stretched {
            let u = Float(window.lowerBound) + Float(k) * span / Float(stretched)
            let i = min(Int(u), window.upperBound - 2), w = u - Float(i)
            func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> { a + (b - a) * w }
            let g = mix(gravity[i], gravity[i + 1])
            let a = mix(original[i].acceleration - gravity[i], original[i + 1].acceleration - gravity[i + 1])
            let omega = mix(original[i].angularRate, original[i + 1].angularRate) * rate
            samples.append(IMUSample(timestampNanoseconds: 0, acceleration: g + a * dynamic, angularRate: omega))
        }
        samples += original[window.upperBound...]
        let start = original.first?.timestampNanoseconds ?? 0
        for n in samples.indices { samples[n].timestampNanoseconds = start + Int64(n) * SisFallTrial.samplePeriodNanoseconds }
        return (samples, trial.labels.map { stretch($0, window: window, stretched: stretched) })
    }

    /// `labels` with the window's stretch of rows repeated as the samples were: each new row takes
    /// the label of the nearest original row it was drawn from. A label file a row or two short
    /// of its samples (a SisFall quirk) keeps its last label over the missing rows.
    func stretch(_ labels: [UInt8], window: Range<Int>, stretched: Int) -> [UInt8] {
        guard window.lowerBound < labels.count else { return labels }
        let span = Float(window.count - 1)
        var out = Array(labels[..<window.lowerBound])
        for k in 0...stretched {
            out.append(labels[min(labels.count - 1, window.lowerBound + Int((Float(k) * span / Float(stretched)).rounded()))])
        }
        if window.upperBound < labels.count { out += labels[window.upperBound...] }
        return out
    }
}

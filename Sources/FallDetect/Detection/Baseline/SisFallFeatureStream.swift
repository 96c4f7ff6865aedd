/// One of the paper's features computed sample by sample, causally and in O(1) per sample: the
/// value at sample n depends on samples 0…n only. Feed body-frame acceleration in g at the
/// parameters' rate; `push` returns the feature of the window that ends with that sample, or nil
/// while the first window is still filling (the paper's windows are whole; C2, a per-sample value,
/// is available at once). The maximum of the returned values over a trial is the trial's score.
///
/// Noncopyable: it owns its windows, allocated once in `init`; `push` never allocates.
public struct SisFallFeatureStream: ~Copyable {
    public let feature: SisFallFeature
    public let parameters: SisFallFeatureParameters

    var lowPass: ButterworthLowPass
    var started = false
    var seen = 0
    let window: Int
    /// Seconds per sample, for the integral (C13).
    let samplePeriod: Float
    /// Per-axis statistics of the filtered acceleration (C8, C9).
    var axes: SlidingStatistics
    /// Statistics of the horizontal magnitude, whose mean × window length is its integral (C13).
    var horizontal: SlidingStatistics
    /// Per-axis extrema for the peak-to-peak (C3).
    var extremaX: SlidingExtrema
    var extremaY: SlidingExtrema
    var extremaZ: SlidingExtrema

    public init(_ feature: SisFallFeature, parameters: SisFallFeatureParameters = SisFallFeatureParameters()) throws(FallDetectError) {
        try parameters.validate()
        guard let lowPass = ButterworthLowPass(cutoff: parameters.cutoffHertz, sampleRate: parameters.sampleRateHertz) else {
            throw FallDetectError(.invalidArgument, "cannot design a \(parameters.cutoffHertz) Hz low-pass at \(parameters.sampleRateHertz) Hz", field: "cutoffHertz")
        }
        self.feature = feature
        self.parameters = parameters
        self.lowPass = lowPass
        window = parameters.windowSamples
        samplePeriod = Float(1 / parameters.sampleRateHertz)
        // Only the kernels the feature uses get a full window; the others a token one.
        axes = SlidingStatistics(window: feature == .c8 || feature == .c9 ? window : 1)
        horizontal = SlidingStatistics(window: feature == .c13 ? window : 1)
        let extremaWindow = feature == .c3 ? window : 1
        extremaX = SlidingExtrema(window: extremaWindow)
        extremaY = SlidingExtrema(window: extremaWindow)
        extremaZ = SlidingExtrema(window: extremaWindow)
    }

    /// Adds one body-frame acceleration in g; returns the feature in `feature.unit`, or nil while
    /// the first window fills.
    public mutating func push(_ acceleration: SIMD3<Float>) -> Float? {
        if !started {
            // Start the filter as if the first reading had lasted forever: a belt unit at rest reads
            // ~1 g, and a zero start would ring for a second and pass for motion.
            lowPass.reset(steadyAt: acceleration)
            started = true
        }
        let a = lowPass.filter(acceleration)
        seen &+= 1
        let full = seen >= window
        switch feature {
        case .c2:
            return (a.x * a.x + a.y * a.y).squareRoot()
        case .c3:
            let x = extremaX.push(a.x), y = extremaY.push(a.y), z = extremaZ.push(a.z)
            guard full else { return nil }
            let px = x.maximum - x.minimum, py = y.maximum - y.minimum, pz = z.maximum - z.minimum
            return ((px * px + py * py + pz * pz) / 3).squareRoot()
        case .c8:
            let s = axes.push(a)
            guard full else { return nil }
            return (s.variance.x + s.variance.y).squareRoot()
        case .c9:
            let s = axes.push(a)
            guard full else { return nil }
            return (s.variance.x + s.variance.y + s.variance.z).squareRoot()
        case .c13:
            let s = horizontal.push(SIMD3((a.x * a.x + a.y * a.y).squareRoot(), 0, 0))
            guard full else { return nil }
            // Rectangle rule: Σ h·Δt over the window = mean · n · Δt.
            return s.mean.x * Float(window) * samplePeriod
        }
    }

    /// The trial's score: the maximum of the feature over `samples` (nil when the trial is
    /// shorter than one window).
    public static func maximum(
        of feature: SisFallFeature, over samples: [IMUSample],
        parameters: SisFallFeatureParameters = SisFallFeatureParameters()
    ) throws(FallDetectError) -> Float? {
        var stream = try SisFallFeatureStream(feature, parameters: parameters)
        var best: Float?
        for sample in samples {
            if let v = stream.push(sample.acceleration), v > (best ?? -.infinity) { best = v }
        }
        return best
    }
}

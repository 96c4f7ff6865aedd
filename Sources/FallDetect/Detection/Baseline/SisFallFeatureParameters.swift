/// The paper's preprocessing and windowing, with units. Defaults are the paper's (§3.4.1, §4.1).
public struct SisFallFeatureParameters: Sendable, Hashable {
    /// Low-pass cutoff in Hz (4th-order Butterworth).
    public var cutoffHertz: Double
    /// Sample rate of the input in Hz (SisFall: 200).
    public var sampleRateHertz: Double
    /// Sliding window length in seconds (1 s; full overlap).
    public var windowSeconds: Double

    public init(cutoffHertz: Double = 5, sampleRateHertz: Double = 200, windowSeconds: Double = 1) {
        self.cutoffHertz = cutoffHertz
        self.sampleRateHertz = sampleRateHertz
        self.windowSeconds = windowSeconds
    }

    /// Window length in samples (200 at the defaults), at least 1.
    public var windowSamples: Int { max(1, Int((windowSeconds * sampleRateHertz).rounded())) }

    /// Throws `.invalidArgument` unless the filter can be designed and the window is sensible.
    public func validate() throws(FallDetectError) {
        guard sampleRateHertz.isFinite, sampleRateHertz > 0 else {
            throw FallDetectError(.invalidArgument, "sample rate must be positive, got \(sampleRateHertz) Hz", field: "sampleRateHertz")
        }
        guard cutoffHertz.isFinite, cutoffHertz > 0, cutoffHertz < sampleRateHertz / 2 else {
            throw FallDetectError(
                .invalidArgument, "cutoff must lie in (0, \(sampleRateHertz / 2)) Hz, got \(cutoffHertz) Hz", field: "cutoffHertz")
        }
        guard windowSeconds.isFinite, windowSeconds > 0, windowSeconds * sampleRateHertz <= 1_000_000 else {
            throw FallDetectError(
                .invalidArgument, "window must be positive and at most 10⁶ samples, got \(windowSeconds) s", field: "windowSeconds")
        }
    }
}

/// One output of a `SampleDetector`: a time on the samples' clock and, optionally, a score on the
/// detector's own scale (what `SampleDetectorOutput` says it means).
public struct SampleDetection: Sendable, Hashable {
    public var timestampNanoseconds: Int64
    /// Nil: a decision without a score, which counts at every threshold.
    public var score: Float?

    public init(timestampNanoseconds: Int64, score: Float? = nil) {
        self.timestampNanoseconds = timestampNanoseconds
        self.score = score
    }
}

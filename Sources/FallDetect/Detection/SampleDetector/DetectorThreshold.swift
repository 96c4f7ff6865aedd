/// Which threshold a benchmark applies to a `SampleDetector`'s scores.
public enum DetectorThreshold: Sendable, Hashable {
    /// Every detection counts: the detector made its own decisions.
    case none
    /// Its own operating point (a shipped judge's threshold), never refitted.
    case fixed(Float)
    /// The bench fits it like C8's: the value of `grid` with the best (SE + SP) / 2 on the
    /// trials it fits on (all of them, or per fold with --train), the lowest among equals. An
    /// empty grid: up to 101 quantiles of the scores the detector gave.
    case fitted(grid: [Float])
}

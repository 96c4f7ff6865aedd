/// A snapshot of a replay in progress, handed to whoever draws it.
public struct ReplayProgress: Sendable {
    public var title: String
    public var isSynthetic: Bool
    public var statistics: ReplayStatistics
    /// Length of the whole recording, seconds of data.
    public var totalSeconds: Double
    /// Wall-clock seconds since this recording started replaying.
    public var wallSeconds: Double
    public var isFinished: Bool

    public init(
        title: String, isSynthetic: Bool, statistics: ReplayStatistics, totalSeconds: Double,
        wallSeconds: Double, isFinished: Bool
    ) {
        self.title = title
        self.isSynthetic = isSynthetic
        self.statistics = statistics
        self.totalSeconds = totalSeconds
        self.wallSeconds = wallSeconds
        self.isFinished = isFinished
    }

    /// 0…1, by data time.
    public var fraction: Double {
        totalSeconds > 0 ? min(1, statistics.durationSeconds / totalSeconds) : (isFinished ? 1 : 0)
    }

    /// Samples pushed through the pipeline per wall-clock second.
    public var samplesPerSecond: Double {
        wallSeconds > 0 ? Double(statistics.samples) / wallSeconds : 0
    }
}

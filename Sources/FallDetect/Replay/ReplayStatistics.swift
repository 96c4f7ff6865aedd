/// What the pipeline has seen of one recording so far; O(1) work per sample, no allocation.
public struct ReplayStatistics: Sendable, Equatable {
    public var samples = 0
    public var fixes = 0
    public var events = 0
    /// Detections the pipeline made (0 when no detectors ran).
    public var detections = 0
    /// Timestamps of the first and latest sample, nanoseconds.
    public var firstTimestamp: Int64?
    public var lastTimestamp: Int64?
    /// Largest |a| seen, in g, and when.
    public var peakAcceleration: Float = 0
    public var peakTimestamp: Int64?

    public init() {}

    /// Seconds of data from the first to the latest sample.
    public var durationSeconds: Double {
        guard let first = firstTimestamp, let last = lastTimestamp else { return 0 }
        return Double(last - first) / 1e9
    }

    public mutating func consume(_ batch: UnsafeBufferPointer<IMUSample>) {
        guard let first = batch.first, let last = batch.last else { return }
        if firstTimestamp == nil { firstTimestamp = first.timestampNanoseconds }
        lastTimestamp = last.timestampNanoseconds
        samples += batch.count
        // Compare squared magnitudes; one square root for the batch's winner only.
        var peakSquared = peakAcceleration * peakAcceleration
        var peakAt = -1
        for i in batch.indices {
            let a = batch[i].acceleration
            let m = (a * a).sum()
            if m > peakSquared {
                peakSquared = m
                peakAt = i
            }
        }
        if peakAt >= 0 {
            peakAcceleration = peakSquared.squareRoot()
            peakTimestamp = batch[peakAt].timestampNanoseconds
        }
    }

    /// Adds another recording's figures (for totals over a directory).
    public mutating func merge(_ other: ReplayStatistics) {
        samples += other.samples
        fixes += other.fixes
        events += other.events
        detections += other.detections
        if other.peakAcceleration > peakAcceleration {
            peakAcceleration = other.peakAcceleration
            peakTimestamp = other.peakTimestamp
        }
    }
}

/// A recording held in memory: the header and its four streams, each in time order.
/// Live sessions, SisFall trials, users' CSV files and synthetic traces all become this.
public struct Recording: Sendable {
    public var info: RecordingInfo
    /// Body-frame IMU samples.
    public var samples: [IMUSample]
    public var magnetometer: [MagnetometerSample]
    public var fixes: [GNSSFix]
    public var events: [RecordedEvent]

    public init(
        info: RecordingInfo,
        samples: [IMUSample] = [],
        magnetometer: [MagnetometerSample] = [],
        fixes: [GNSSFix] = [],
        events: [RecordedEvent] = []
    ) {
        self.info = info
        self.samples = samples
        self.magnetometer = magnetometer
        self.fixes = fixes
        self.events = events
    }

    /// From the first to the last IMU sample, in seconds.
    public var durationSeconds: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        // In Double: the difference of two far-apart Int64 timestamps may not fit in one.
        return (Double(last.timestampNanoseconds) - Double(first.timestampNanoseconds)) / 1e9
    }
}

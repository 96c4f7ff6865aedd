/// A continuous recording with per-sample activity labels: a stretch of someone's day, as a
/// worn device sees it, rather than one scripted trial. Every detection in it is scored against
/// its labels: inside a labelled fall it finds the fall; in the removal tail it is a detection at
/// the device's removal; anywhere else it is a false alarm.
public struct LabelledRecording: Sendable {
    /// `user01_exp0`.
    public var name: String
    /// Whose recording: the unit the bench's folds and intervals resample.
    public var subject: String
    public var recording: Recording
    /// One label per sample; `unlabelled` where the dataset gives none.
    public var labels: [Int16]
    /// Where the wearer's activities end and the device's removal begins (the dataset's last
    /// labelled sample plus `LabelledRecording.removalMargin`), nil when the recording has no removal.
    public var removalStartNanoseconds: Int64?
    /// Labelled falls on the samples' clock (none in a dataset of daily activities).
    public var fallSpans: [ClosedRange<Int64>]
    /// The name of each label value: 1 → "walking".
    public var labelNames: [Int16: String]
    /// True when the samples are in the sensor's own frame and the pipeline must estimate how the
    /// device is worn (`MountingEstimator`, axes `auto`).
    public var estimatesMounting = false

    public static let unlabelled: Int16 = -1
    /// Seconds after the last labelled activity still counted as activity: the cut, so the
    /// last movement's candidate (decided up to 0.6 s after its impact) is judged with it.
    public static let removalMargin: Double = 2

    public init(
        name: String, subject: String, recording: Recording, labels: [Int16], removalStartNanoseconds: Int64?, fallSpans: [ClosedRange<Int64>] = [],
        labelNames: [Int16: String]
    ) {
        self.name = name
        self.subject = subject
        self.recording = recording
        self.labels = labels
        self.removalStartNanoseconds = removalStartNanoseconds
        self.fallSpans = fallSpans
        self.labelNames = labelNames
    }

    /// Seconds of daily activity: up to the removal, or the whole recording.
    public var activitySeconds: Double {
        guard let first = recording.samples.first?.timestampNanoseconds, let last = recording.samples.last?.timestampNanoseconds else { return 0 }
        return Double(min(last, removalStartNanoseconds ?? last) - first) / 1e9
    }

    /// Seconds of the removal tail.
    public var removalSeconds: Double {
        guard let start = removalStartNanoseconds, let last = recording.samples.last?.timestampNanoseconds else { return 0 }
        return Double(max(0, last - start)) / 1e9
    }

    /// The activity at `timestamp`: its sample's label, else the nearest labelled sample within
    /// `reach` seconds (detections land between a movement's labelled steps), else "unlabelled".
    public func activity(at timestamp: Int64, reach: Double = 5) -> String {
        let samples = recording.samples
        guard !samples.isEmpty else { return "unlabelled" }
        // Samples are evenly spaced in a labelled dataset; find the index by binary search anyway.
        var low = 0
        var high = samples.count - 1
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].timestampNanoseconds < timestamp { low = mid + 1 } else { high = mid }
        }
        let period = samples.count > 1 ? Double(samples[samples.count - 1].timestampNanoseconds - samples[0].timestampNanoseconds) / Double(samples.count - 1) : 1e9
        let steps = Int(reach * 1e9 / max(period, 1))
        for d in 0...steps {
            for i in [low - d, low + d] where i >= 0 && i < labels.count && labels[i] != Self.unlabelled {
                return labelNames[labels[i]] ?? "label \(labels[i])"
            }
        }
        return "unlabelled"
    }
}

/// One SisFall trial in units and in the body frame, ready for detectors.
///
/// `samples` holds the ADXL345 (acceleration, g = raw/256) and ITG3200 (angular rate,
/// °/s = raw/14.375) with timestamps 0, 5 ms, 10 ms, … (200 Hz). The belt unit's second
/// accelerometer, the MMA8451Q (g = raw·16/16384), is kept apart in `mma8451qAcceleration`, also in
/// the body frame. `labels` are Musci et al.'s per-sample labels (0 background, 1 alert, 2 fall)
/// when the enhanced label file was found.
public struct SisFallTrial: Sendable {
    public var name: SisFallTrialName
    /// The raw text file the trial came from.
    public var path: String
    public var samples: [IMUSample]
    /// MMA8451Q accelerations in g, body frame, one per sample.
    public var mma8451qAcceleration: [SIMD3<Float>]
    /// One label per sample, or nil when the trial has none.
    public var labels: [UInt8]?

    /// 200 Hz.
    public static let samplePeriodNanoseconds: Int64 = 5_000_000

    public init(
        name: SisFallTrialName, path: String, samples: [IMUSample], mma8451qAcceleration: [SIMD3<Float>],
        labels: [UInt8]?
    ) {
        self.name = name
        self.path = path
        self.samples = samples
        self.mma8451qAcceleration = mma8451qAcceleration
        self.labels = labels
    }

    /// Converts parsed rows (`SisFallParser`'s row-major raw values, 9 per row).
    public init(name: SisFallTrialName, path: String, rows: UnsafeBufferPointer<Int16>, labels: [UInt8]?) {
        let count = rows.count / SisFallParser.columns
        let mapping = AxisMapping.sisFall
        let adxl: Float = 1.0 / 256
        // The ITG-3200 datasheet's 14.375 LSB per °/s, not the dataset readme's raw·4000/65536,
        // which reads every rotation 14 % short. Checked on the data: between rest postures of
        // D10–D14 (662 turns of 85° median), integrating the gyroscope misses the accelerometer's
        // turn by 12.5° median with the readme's scale and by 3.2° with the datasheet's.
        let itg: Float = 1 / 14.375
        let mma: Float = 16.0 / 16384
        let period = Self.samplePeriodNanoseconds
        // Filled in place: one pass, no per-sample allocation.
        let samples = [IMUSample](unsafeUninitializedCapacity: count) { out, n in
            for i in 0..<count {
                let r = i * 9
                let a = SIMD3(Float(rows[r]), Float(rows[r + 1]), Float(rows[r + 2])) * adxl
                let g = SIMD3(Float(rows[r + 3]), Float(rows[r + 4]), Float(rows[r + 5])) * itg
                out.initializeElement(
                    at: i,
                    to: IMUSample(
                        timestampNanoseconds: Int64(i) * period, acceleration: mapping.apply(a),
                        angularRate: mapping.apply(g)))
            }
            n = count
        }
        let second = [SIMD3<Float>](unsafeUninitializedCapacity: count) { out, n in
            for i in 0..<count {
                let r = i * 9
                let m = SIMD3(Float(rows[r + 6]), Float(rows[r + 7]), Float(rows[r + 8])) * mma
                out.initializeElement(at: i, to: mapping.apply(m))
            }
            n = count
        }
        self.init(name: name, path: path, samples: samples, mma8451qAcceleration: second, labels: labels)
    }

    public init(name: SisFallTrialName, path: String, rows: [Int16], labels: [UInt8]?) {
        self = rows.withUnsafeBufferPointer { Self(name: name, path: path, rows: $0, labels: labels) }
    }

    public var activity: SisFallActivity? { name.activity }

    /// Seconds from the first to the last sample.
    public var durationSeconds: Double {
        Double(max(samples.count - 1, 0)) * Double(Self.samplePeriodNanoseconds) / 1e9
    }

    /// True when the labels mark a fall (2) somewhere; nil without labels.
    public var labelsMarkFall: Bool? { labels.map { $0.contains(2) } }

    /// The trial as a `Recording`: an `.activity` event at t = 0 (value: 1 for a fall, 0 for ADL;
    /// text: code and summary), then a `.label` event at t = 0 and at each change of label.
    public func recording() -> Recording {
        let title = "SisFall \(name.activityCode) \(name.subject) R\(name.repetition < 10 ? "0" : "")\(name.repetition)"
        var events = [
            RecordedEvent(
                timestampNanoseconds: 0, kind: .activity, value: name.isFall ? 1 : 0,
                text: activity.map(\.description) ?? name.activityCode)
        ]
        if let labels {
            var previous: UInt8?
            for (i, label) in labels.enumerated() where label != previous {
                events.append(
                    RecordedEvent(
                        timestampNanoseconds: Int64(i) * Self.samplePeriodNanoseconds, kind: .label,
                        value: Int32(label)))
                previous = label
            }
        }
        return Recording(info: RecordingInfo(sensor: .sisFall, title: title), samples: samples, events: events)
    }
}

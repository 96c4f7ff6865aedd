import Foundation

/// The HAPT recordings as `../shared/datasets/hapt-dev.tar.xz` lays them out: a folder holding
/// `recordings/userNN_expK.csv` (acc-x,acc-y,acc-z in g, gyro-x,gyro-y,gyro-z in rad/s, sequence,
/// label; 50 Hz, no time column) from a phone worn on the belt. Reyes-Ortiz et al., Neurocomputing
/// 171 (2016), CC BY 4.0. No falls: every detection is a false alarm, and each recording's tail,
/// after its last labelled activity, is the phone being taken off and set down.
public struct HAPTDataset: Sendable {
    /// The folder holding `recordings/`.
    public let root: String
    public let files: [String]

    public static let sampleRate: Double = 50
    /// The README's body frame: acc-x points up, the phone sits at the front of the belt.
    public static let axisMapping = AxisMapping(
        x: .init(index: 2, sign: 1), y: .init(index: 1, sign: -1), z: .init(index: 0, sign: 1))

    public static let labelNames: [Int16: String] = [
        1: "walking", 2: "upstairs", 3: "downstairs", 4: "sitting", 5: "standing", 6: "lying", 7: "stand-to-sit", 8: "sit-to-stand",
        9: "sit-to-lie", 10: "lie-to-sit", 11: "stand-to-lie", 12: "lie-to-stand",
    ]

    /// The CSV layout of a recording, in the body frame.
    public static var format: CSVFormat {
        CSVFormat(
            time: nil, acceleration: (.name("acc-x"), .name("acc-y"), .name("acc-z")),
            angularRate: (.name("gyro-x"), .name("gyro-y"), .name("gyro-z")), angularRateUnit: .radiansPerSecond, sampleRate: sampleRate,
            axisMapping: axisMapping)
    }

    /// `root` may be the dataset folder or its `recordings/` folder.
    public init(root: String) throws(FallDetectError) {
        let candidates = [root + "/recordings", root]
        guard let folder = candidates.first(where: { Self.csvFiles(in: $0).isEmpty == false }) else {
            throw FallDetectError(.noData, "no HAPT recordings (recordings/userNN_expK.csv) here", path: root)
        }
        self.root = folder
        files = Self.csvFiles(in: folder)
    }

    private static func csvFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("user") && $0.hasSuffix(".csv") }.sorted().map { folder + "/" + $0 }
    }

    /// Every recording on `workers` threads (default: one per core), in `files` order: each with
    /// the rows its reader skipped, or the error that kept it from loading.
    public func loadAll(workers: Int? = nil) -> [Result<(recording: LabelledRecording, problems: [FallDetectError]), FallDetectError>] {
        ConcurrentIndices.map(count: files.count, workers: workers) { i in
            Result { () throws(FallDetectError) in try load(files[i]) }
        }
    }

    /// One recording with its labels; rows the reader skipped are in `problems`.
    public func load(_ path: String) throws(FallDetectError) -> (recording: LabelledRecording, problems: [FallDetectError]) {
        var format = Self.format
        format.label = .name("label")
        let read = try CSVRecordingReader(format: format).read(path: path)
        // A label that is not a number would leave the activity unknown: an error, not a gap.
        if let bad = read.problems.first(where: { $0.field == "label" }) { throw bad }
        let labels = read.labels
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let subject = String(name.split(separator: "_").first ?? Substring(name))
        var removal: Int64?
        if let last = labels.lastIndex(where: { $0 != LabelledRecording.unlabelled }), last + 1 < read.recording.samples.count {
            removal = read.recording.samples[last].timestampNanoseconds + Int64(LabelledRecording.removalMargin * 1e9)
        }
        let recording = LabelledRecording(
            name: name, subject: subject, recording: read.recording, labels: labels, removalStartNanoseconds: removal, labelNames: Self.labelNames)
        return (recording, read.problems)
    }
}

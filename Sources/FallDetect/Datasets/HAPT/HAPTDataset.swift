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

    /// One recording with its labels; rows the reader skipped are in `problems`.
    public func load(_ path: String) throws(FallDetectError) -> (recording: LabelledRecording, problems: [FallDetectError]) {
        let read = try CSVRecordingReader(format: Self.format).read(path: path)
        let labels = try Self.labels(path: path, rows: read.recording.samples.count, skipped: read.problems.count)
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

    /// The last column of every data row. A file with skipped rows cannot be aligned with its
    /// samples, so it is refused rather than mislabelled.
    static func labels(path: String, rows: Int, skipped: Int) throws(FallDetectError) -> [Int16] {
        guard skipped == 0 else {
            throw FallDetectError(.labelMismatch, "\(skipped) unreadable row(s): labels cannot be aligned with the samples", path: path)
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw FallDetectError(.io, "cannot read: \((error as NSError).localizedDescription)", path: path)
        }
        var labels: [Int16] = []
        labels.reserveCapacity(rows)
        var line = 0
        var failure: FallDetectError?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
                defer { start = i + 1 }
                line += 1
                guard i > start, line > 1 else { continue }  // the header
                var comma = i - 1
                while comma >= start, bytes[comma] != UInt8(ascii: ",") { comma -= 1 }
                let field = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(comma + 1)..<i]), as: UTF8.self)
                guard let value = Int16(field.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    if failure == nil { failure = FallDetectError(.malformedRow, "label \"\(field)\" is not a number", path: path, line: line, field: "label") }
                    continue
                }
                labels.append(value)
            }
        }
        if let failure { throw failure }
        guard labels.count == rows else {
            throw FallDetectError(.labelMismatch, "\(labels.count) labels for \(rows) samples", path: path, field: "label")
        }
        return labels
    }
}

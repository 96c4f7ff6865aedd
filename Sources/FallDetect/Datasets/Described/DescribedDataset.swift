import Dispatch
import Foundation
import Synchronization

/// The recordings a `DatasetDescription` describes, found under a root folder and loaded as
/// `LabelledRecording`s: samples through `CSVRecordingReader`, labels from a column or a parallel
/// file, falls from the labels or a side file, and the removal tail when the description has one.
///
/// Quirks that leave a file usable (a label file one line off, a missing label file, a fall trial
/// with no labelled fall) become notices naming the file; a file that cannot be read is skipped
/// with its error, and the rest still load.
public struct DescribedDataset: Sendable {
    /// One recording found on disk.
    public struct Entry: Sendable, Hashable {
        public let path: String
        /// Slash-separated, relative to the root: what the patterns and templates see.
        public let relativePath: String
        /// The file name without its extension: the recording's name in reports.
        public let name: String
        public let subject: String
        /// Trials only: the name matches the description's fall-trial pattern.
        public let isFallTrial: Bool
    }

    /// What `loadAll` read, in `entries` order.
    public struct Loaded: Sendable {
        public var recordings: [LabelledRecording]
        /// Per recording: a fall trial (always false for continuous datasets).
        public var isFallTrial: [Bool]
        /// Rows the reader skipped (path, line, field).
        public var problems: [FallDetectError]
        /// Files that could not be loaded.
        public var failures: [FallDetectError]
        public var notices: [String]
    }

    public let dataset: DatasetDescription
    public let root: String
    public let entries: [Entry]
    /// What listing the files noticed (a file whose path the subject pattern does not match).
    public let notices: [String]
    /// The description's format with its axes and label column in place.
    public let format: CSVFormat
    let spanFile: FallSpanFile?

    public init(description: DatasetDescription, root: String) throws(FallDetectError) {
        let source = description.source
        var format = description.format
        switch description.axes {
        case .mapping(let mapping): format.axisMapping = mapping
        case .auto: format.axisMapping = .identity  // the pipeline estimates the body frame (`MountingEstimator`)
        }
        if case .column(let column) = description.labels { format.label = column } else { format.label = nil }
        if case .labels = description.falls, description.labels == nil {
            throw FallDetectError(.invalidArgument, "falls come from labels, but the description names no label column or file", path: source, field: "falls")
        }
        let glob = try FileGlob(description.files)
        let subject = try Self.regex(description.subjectPattern, field: "subject", captures: 1, source: source)
        var fallTrials: NSRegularExpression?
        if case .trials(let pattern) = description.kind {
            fallTrials = try Self.regex(pattern, field: "fall_trials", captures: nil, source: source)
        }
        var notices: [String] = []
        var entries: [Entry] = []
        for relative in glob.matches(in: root) {
            let components = relative.split(separator: "/").map(String.init)
            let file = components.last ?? relative
            let name = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
            var who = components.count > 1 ? components[components.count - 2] : name
            if let subject {
                guard let found = Self.firstGroup(subject, in: relative) else {
                    notices.append("\(root)/\(relative): the subject pattern does not match its path; ignored")
                    continue
                }
                who = found
            }
            let isFall = fallTrials.map { Self.firstGroup($0, in: name, whole: true) != nil } ?? false
            entries.append(Entry(path: "\(root)/\(relative)", relativePath: relative, name: name, subject: who, isFallTrial: isFall))
        }
        guard !entries.isEmpty else {
            throw FallDetectError(.noData, "no recording matches \(description.files)\(notices.isEmpty ? "" : " and the subject pattern")", path: root, field: "files")
        }
        if case .spanFile(let path) = description.falls {
            spanFile = try FallSpanFile(path: path.hasPrefix("/") ? path : "\(root)/\(path)")
        } else {
            spanFile = nil
        }
        dataset = description
        self.root = root
        self.entries = entries
        self.notices = notices
        self.format = format
    }

    /// Loads every recording on `workers` threads (default: one per core), in `entries` order.
    /// A fall trial with no labelled fall is left out with a notice: it cannot be scored.
    public func loadAll(workers: Int? = nil) -> Loaded {
        let collected = ConcurrentIndices.map(count: entries.count, workers: workers) { i in
            Result { () throws(FallDetectError) in try load(entries[i]) }
        }
        var loaded = Loaded(recordings: [], isFallTrial: [], problems: [], failures: [], notices: notices)
        for (i, entry) in entries.enumerated() {
            switch collected[i] {
            case .success(let (recording, problems, notices)):
                loaded.problems += problems
                loaded.notices += notices
                if entry.isFallTrial, recording.fallSpans.isEmpty {
                    loaded.notices.append("\(entry.path): fall trial without a labelled fall; left out")
                    continue
                }
                loaded.recordings.append(recording)
                loaded.isFallTrial.append(entry.isFallTrial)
            case .failure(let error): loaded.failures.append(error)
            }
        }
        return loaded
    }

    /// One recording, the rows its reader skipped, and what loading it noticed.
    public func load(_ entry: Entry) throws(FallDetectError) -> (recording: LabelledRecording, problems: [FallDetectError], notices: [String]) {
        let read = try CSVRecordingReader(format: format).read(path: entry.path)
        let samples = read.recording.samples
        var notices: [String] = []
        var labels = [Int16](repeating: LabelledRecording.unlabelled, count: samples.count)
        switch dataset.labels {
        case .column?:
            labels = read.labels
        case .file(let template)?:
            let path = "\(root)/\(template.path(for: entry.relativePath, subject: entry.subject))"
            if let fromFile = Self.labelFile(path, samples: samples.count, skippedRows: read.problems.count, notices: &notices) { labels = fromFile }
        case nil: break
        }
        if let unlabelled = dataset.unlabelledValue, unlabelled != LabelledRecording.unlabelled {
            for i in labels.indices where labels[i] == unlabelled { labels[i] = LabelledRecording.unlabelled }
        }

        var spans: [ClosedRange<Int64>] = []
        switch dataset.falls {
        case .labels(let values):
            spans = Self.spans(labels: labels, samples: samples, values: values, merged: dataset.kind != .continuous)
        case .spanFile:
            let origin = samples.first?.timestampNanoseconds ?? 0
            spans = (spanFile?.spans(for: entry.relativePath) ?? []).map {
                origin + Int64(($0.lowerBound * 1e9).rounded())...origin + Int64(($0.upperBound * 1e9).rounded())
            }
        case .none: break
        }
        if case .trials = dataset.kind, !entry.isFallTrial, !spans.isEmpty {
            // A trial's name says what it is; a fall marked inside an ADL trial is a labelling slip.
            notices.append("\(entry.path): a fall is marked inside ADL trial \(entry.name); ignored")
            spans = []
        }

        var removal: Int64?
        if let margin = dataset.removalMargin, let last = labels.lastIndex(where: { $0 != LabelledRecording.unlabelled }), last + 1 < samples.count {
            removal = samples[last].timestampNanoseconds + Int64(margin * 1e9)
        }
        var recording = LabelledRecording(
            name: entry.name, subject: entry.subject, recording: read.recording, labels: labels, removalStartNanoseconds: removal, fallSpans: spans,
            labelNames: dataset.labelNames)
        if case .auto = dataset.axes { recording.estimatesMounting = true }
        return (recording, read.problems, notices)
    }

    /// A parallel label file reconciled with its recording as SisFall's loader does: one label
    /// too many is dropped, one too few repeats the last; any other difference, or rows the reader
    /// skipped, leave the recording without labels (a notice says why).
    static func labelFile(_ path: String, samples: Int, skippedRows: Int, notices: inout [String]) -> [Int16]? {
        guard FileManager.default.fileExists(atPath: path) else {
            notices.append("\(path): no label file; the recording loads without labels")
            return nil
        }
        guard skippedRows == 0 else {
            notices.append("\(path): \(skippedRows) row(s) of its recording were skipped, so the labels cannot be aligned; loads without labels")
            return nil
        }
        var labels: [Int16]
        do { labels = try LabelFile.read(path: path) } catch {
            notices.append("\(error); the recording loads without labels")
            return nil
        }
        switch labels.count - samples {
        case 0: break
        case 1:
            labels.removeLast()
            notices.append("\(path): \(labels.count + 1) labels for \(samples) rows; the last label dropped")
        case -1:
            labels.append(labels.last ?? LabelledRecording.unlabelled)
            notices.append("\(path): \(labels.count - 1) labels for \(samples) rows; the last label repeated")
        default:
            notices.append("\(FallDetectError(.labelMismatch, "\(labels.count) labels for \(samples) rows", path: path)); loads without labels")
            return nil
        }
        return labels
    }

    /// The samples labelled with one of `values`: each run of them a span, or with `merged` one
    /// span from the first to the last (a trial holds one fall, however its labels flicker).
    static func spans(labels: [Int16], samples: [IMUSample], values: Set<Int16>, merged: Bool) -> [ClosedRange<Int64>] {
        if merged {
            guard let first = labels.firstIndex(where: values.contains), let last = labels.lastIndex(where: values.contains) else { return [] }
            return [samples[first].timestampNanoseconds...samples[last].timestampNanoseconds]
        }
        var spans: [ClosedRange<Int64>] = []
        var start: Int?
        for i in 0...labels.count {
            let inside = i < labels.count && values.contains(labels[i])
            if inside, start == nil { start = i }
            if !inside, let s = start {
                spans.append(samples[s].timestampNanoseconds...samples[i - 1].timestampNanoseconds)
                start = nil
            }
        }
        return spans
    }

    /// Compiles `pattern`; `captures` is the number of groups it must have.
    static func regex(_ pattern: String?, field: String, captures: Int?, source: String?) throws(FallDetectError) -> NSRegularExpression? {
        guard let pattern else { return nil }
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: pattern) } catch {
            throw FallDetectError(.invalidArgument, "\"\(pattern)\" is not a regular expression", path: source, field: field)
        }
        if let captures, regex.numberOfCaptureGroups != captures {
            throw FallDetectError(
                .invalidArgument, "\"\(pattern)\" has \(regex.numberOfCaptureGroups) capture groups; expected \(captures), the part that names the subject",
                path: source, field: field)
        }
        return regex
    }

    /// The first capture group of the first match (or the whole match with `whole`), nil without one.
    static func firstGroup(_ regex: NSRegularExpression, in text: String, whole: Bool = false) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, range: range) else { return nil }
        guard let found = Range(match.range(at: whole ? 0 : 1), in: text) else { return whole ? "" : nil }
        return String(text[found])
    }
}

import Foundation

/// A side file of falls, one a row: `file,start,end`. `file` is a recording's path relative to
/// the dataset's root, or its file name, or its name without the extension; `start` and `end` are
/// seconds from the recording's first sample. A first row whose times are not numbers is a header;
/// blank lines and lines starting with '#' are skipped.
public struct FallSpanFile: Sendable {
    /// Seconds per recording key as written in the file.
    public let spans: [String: [ClosedRange<Double>]]

    public init(path: String) throws(FallDetectError) {
        let bytes = try FileContents.read(path, what: "fall span file")
        try self.init(text: String(decoding: bytes, as: UTF8.self), path: path)
    }

    public init(text: String, path: String) throws(FallDetectError) {
        var spans: [String: [ClosedRange<Double>]] = [:]
        var firstRow = true
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 3, !fields[0].isEmpty else {
                throw FallDetectError(.malformedRow, "expected file,start,end", path: path, line: n + 1)
            }
            defer { firstRow = false }
            guard let start = Double(fields[1]), let end = Double(fields[2]) else {
                if firstRow { continue }  // the header
                throw FallDetectError(.malformedRow, "start and end must be seconds", path: path, line: n + 1, field: Double(fields[1]) == nil ? "start" : "end")
            }
            guard start.isFinite, end.isFinite, start >= 0, end >= start else {
                throw FallDetectError(.malformedRow, "expected 0 <= start <= end, got \(fields[1]), \(fields[2])", path: path, line: n + 1)
            }
            spans[fields[0], default: []].append(start...end)
        }
        self.spans = spans
    }

    /// The spans of the recording at `relativePath`, by whichever key the file used.
    public func spans(for relativePath: String) -> [ClosedRange<Double>] {
        let file = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        let name = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        return (spans[relativePath] ?? []) + (file != relativePath ? spans[file] ?? [] : []) + (name != file ? spans[name] ?? [] : [])
    }
}

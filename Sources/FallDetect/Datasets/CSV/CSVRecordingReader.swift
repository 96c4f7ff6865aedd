import Foundation

/// Reads a user's own recording from CSV text into a `Recording`.
///
/// A row that cannot be read (a missing or non-numeric field, time going backwards) is reported as
/// path:line with the field's name and skipped; the rest of the file still loads. A file that names
/// a column its header lacks is an error before any row is read.
public struct CSVRecordingReader: Sendable {
    public var format: CSVFormat

    public init(format: CSVFormat = CSVFormat()) {
        self.format = format
    }

    /// The recording and the problems met on the way (each names path, line and field).
    public struct Result: Sendable {
        public var recording: Recording
        public var problems: [FallDetectError]
    }

    public func read(path: String) throws(FallDetectError) -> Result {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FallDetectError(.io, "cannot read: \((error as NSError).localizedDescription)", path: path)
        }
        let title = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try read(text: data, path: path, title: title)
    }

    public func read(text data: Data, path: String, title: String) throws(FallDetectError) -> Result {
        let lines = Self.lines(of: data)
        guard !lines.isEmpty else { throw FallDetectError(.noData, "the file holds no rows", path: path) }

        // A first row that is not all numbers is the header.
        let first = fields(of: lines[0].text)
        let hasHeader = first.contains { Double($0) == nil }
        let header = hasHeader ? first.map { $0.trimmingCharacters(in: .whitespaces) } : []
        let columns = try resolveColumns(header: header, path: path, line: lines[0].number)

        var samples: [IMUSample] = []
        samples.reserveCapacity(lines.count)
        var problems: [FallDetectError] = []
        let period = 1e9 / format.sampleRate
        var lastTime: Int64?

        for line in lines.dropFirst(hasHeader ? 1 : 0) {
            let row = fields(of: line.text)
            var values = [Double](repeating: 0, count: columns.count)
            var failed = false
            for (slot, column) in columns.enumerated() {
                guard column.index < row.count,
                    let value = Double(row[column.index].trimmingCharacters(in: .whitespaces)), value.isFinite
                else {
                    let what = column.index < row.count ? "\"\(row[column.index])\" is not a number" : "missing"
                    problems.append(FallDetectError(.malformedRow, "\(what); row skipped", path: path, line: line.number, field: column.field))
                    failed = true
                    break
                }
                values[slot] = value
            }
            if failed { continue }

            let timestamp: Int64
            if format.time != nil {
                timestamp = Int64((values[0] * format.timeUnit.nanoseconds).rounded())
                if let lastTime, timestamp <= lastTime {
                    problems.append(FallDetectError(.malformedRow, "time does not increase; row skipped", path: path, line: line.number, field: "time"))
                    continue
                }
            } else {
                timestamp = Int64((Double(samples.count) * period).rounded())
            }
            lastTime = timestamp
            let base = format.time != nil ? 1 : 0
            let a = SIMD3<Float>(
                Float(values[base] * format.accelerationUnit.toG),
                Float(values[base + 1] * format.accelerationUnit.toG),
                Float(values[base + 2] * format.accelerationUnit.toG))
            var w = SIMD3<Float>.zero
            if format.angularRate != nil {
                let k = format.angularRateUnit.toDegreesPerSecond
                w = SIMD3(Float(values[base + 3] * k), Float(values[base + 4] * k), Float(values[base + 5] * k))
            }
            samples.append(IMUSample(
                timestampNanoseconds: timestamp,
                acceleration: format.axisMapping.apply(a),
                angularRate: format.axisMapping.apply(w)))
        }

        // Rebase time to start at zero; keep the estimated rate in the header.
        if let origin = samples.first?.timestampNanoseconds, origin != 0 {
            for i in samples.indices { samples[i].timestampNanoseconds -= origin }
        }
        var rate = format.sampleRate
        if format.time != nil, samples.count > 1, let last = samples.last {
            rate = Double(samples.count - 1) / (Double(last.timestampNanoseconds) / 1e9)
        }
        let sensor = SensorInfo(
            sensor: "CSV", device: "unknown", accelerometerRange: .nan, gyroscopeRange: .nan,
            sampleRate: rate, axisMapping: format.axisMapping)
        return Result(recording: Recording(info: RecordingInfo(sensor: sensor, title: title), samples: samples), problems: problems)
    }

    private struct ResolvedColumn {
        var field: String
        var index: Int
    }

    private func resolveColumns(header: [String], path: String, line: Int) throws(FallDetectError) -> [ResolvedColumn] {
        var wanted: [(String, CSVFormat.Column)] = []
        if let time = format.time { wanted.append(("time", time)) }
        wanted += [("ax", format.acceleration.x), ("ay", format.acceleration.y), ("az", format.acceleration.z)]
        if let g = format.angularRate { wanted += [("gx", g.x), ("gy", g.y), ("gz", g.z)] }
        var resolved: [ResolvedColumn] = []
        for (field, column) in wanted {
            switch column {
            case .index(let i):
                resolved.append(ResolvedColumn(field: field, index: i))
            case .name(let name):
                guard let i = header.firstIndex(of: name) else {
                    let known = header.isEmpty ? "the file has no header row" : "header has \(header.joined(separator: ", "))"
                    throw FallDetectError(.invalidArgument, "no column named \"\(name)\" (\(known))", path: path, line: line, field: field)
                }
                resolved.append(ResolvedColumn(field: field, index: i))
            }
        }
        return resolved
    }

    private func fields(of line: Substring) -> [Substring] {
        line.split(separator: Character(UnicodeScalar(format.delimiter)), omittingEmptySubsequences: false)
    }

    /// Non-empty lines with their 1-based numbers; CRLF and LF both end a line; `#` starts a comment line.
    private static func lines(of data: Data) -> [(number: Int, text: Substring)] {
        let text = String(decoding: data, as: UTF8.self)
        var result: [(Int, Substring)] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.allSatisfy(\.isWhitespace) || trimmed.hasPrefix("#") { continue }
            result.append((number, trimmed))
        }
        return result
    }
}

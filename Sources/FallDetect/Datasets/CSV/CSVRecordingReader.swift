import CFusion
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
        /// With a label column, one value per sample (a skipped row takes its label with it, so
        /// the two stay aligned); empty without one. A row whose label is not a whole Int16 is
        /// refused with the others, so every label here is one.
        public var labels: [Int16] = []
    }

    public func read(path: String) throws(FallDetectError) -> Result {
        let bytes = try FileContents.read(path, what: "CSV recording")
        let title = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try bytes.withUnsafeBytes { text in catching { () throws(FallDetectError) in try read(bytes: text, path: path, title: title) } }.get()
    }

    public func read(text data: Data, path: String, title: String) throws(FallDetectError) -> Result {
        try data.withUnsafeBytes { text in catching { () throws(FallDetectError) in try read(bytes: text, path: path, title: title) } }.get()
    }

    /// Carries a typed error out of `withUnsafeBytes`, whose `rethrows` would widen it to `any Error`.
    private func catching(_ body: () throws(FallDetectError) -> Result) -> Swift.Result<Result, FallDetectError> {
        do { return .success(try body()) } catch { return .failure(error) }
    }

    /// Rows the C parser writes per call: its output stays small enough to sit in the cache.
    static let chunkRows = 1024

    /// Reads the text's rows. CFusion's parser converts the wanted columns of well-formed rows (see
    /// cfusion_csv.h); a row it hands back goes through `slowRow`, which reports it as before.
    public func read(bytes text: UnsafeRawBufferPointer, path: String, title: String) throws(FallDetectError) -> Result {
        guard let head = Self.firstLine(of: text) else {
            throw FallDetectError(.noData, "the file holds no rows", path: path)
        }
        let (headerLine, headerStart, headerEnd) = head
        // A first row that is not all numbers is the header. When every column is named by index
        // only those fields are looked at, so that text after the last one read (SisFall ends its
        // rows with ';') does not turn the first row into a header.
        let first = fields(of: text, headerStart..<headerEnd)
        let indices = wantedColumns.compactMap { if case .index(let i) = $0.1 { i } else { nil } }
        let looked = indices.count == wantedColumns.count ? indices.filter { $0 < first.count }.map { first[$0] } : first
        let hasHeader = looked.contains { !Self.isNumber(text, $0) }
        let header = hasHeader ? first.map { String(decoding: UnsafeRawBufferPointer(rebasing: text[$0]), as: UTF8.self).trimmingCharacters(in: .whitespaces) } : []
        let columns = try resolveColumns(header: header, path: path, line: headerLine)

        // The C parser reads each distinct column once, in file order; `slots` finds a field's value.
        let unique = Array(Set(columns.map(\.index))).sorted()
        let slots = columns.map { column in unique.firstIndex(of: column.index)! }
        let width = unique.count

        var offset = headerStart
        var line = headerLine
        if hasHeader {
            offset = min(text.count, Self.lineEnd(of: text, from: headerEnd) + 1)
            line += 1
        }
        let unique32 = unique.map { Int32(clamping: $0) }
        let buffer = UnsafeMutableBufferPointer<Double>.allocate(capacity: Self.chunkRows * width)
        defer { buffer.deallocate() }
        let rowLines = UnsafeMutableBufferPointer<Int>.allocate(capacity: Self.chunkRows)
        defer { rowLines.deallocate() }
        // A sample per line at most: the builder writes straight into the array's storage.
        let lines = cfusion_csv_count_lines(text.baseAddress, text.count) + 1
        var labels: [Int16] = []
        var problems: [FallDetectError] = []
        let samples = [IMUSample](unsafeUninitializedCapacity: lines) { storage, kept in
            var builder = Builder(format: format, path: path, slots: slots, storage: storage)
            if format.label != nil { builder.labels.reserveCapacity(lines) }
            unique32.withUnsafeBufferPointer { wanted in
                while offset < text.count {
                    let r = cfusion_csv_parse_rows(
                        text.baseAddress, text.count, offset, line, format.delimiter, wanted.baseAddress, width,
                        buffer.baseAddress, rowLines.baseAddress, Self.chunkRows)
                    builder.append(rows: UnsafePointer(buffer.baseAddress!), count: r.rows, width: width, lines: UnsafePointer(rowLines.baseAddress!))
                    if r.status == CFUSION_CSV_BAD_ROW.rawValue {
                        slowRow(text, r.bad_start..<r.bad_end, line: r.bad_line, columns: columns, unique: unique, into: &builder)
                    }
                    offset = r.next
                    line = r.next_line
                    if r.status == CFUSION_CSV_END.rawValue { break }
                }
            }
            kept = builder.count
            labels = builder.labels
            problems = builder.problems
        }

        // Times count from the first row kept (Builder), so the recording starts at zero; the
        // estimated rate goes in the header.
        var rate = format.sampleRate
        if format.time != nil, samples.count > 1, let last = samples.last {
            rate = Double(samples.count - 1) / (Double(last.timestampNanoseconds) / 1e9)
        }
        let sensor = SensorInfo(
            sensor: "CSV", device: "unknown", accelerometerRange: .nan, gyroscopeRange: .nan,
            sampleRate: rate, axisMapping: format.axisMapping)
        return Result(
            recording: Recording(info: RecordingInfo(sensor: sensor, title: title), samples: samples), problems: problems,
            labels: labels)
    }

    /// Turns rows of values into samples: time, units, axis mapping, the time-order check, and the
    /// ranges a body-worn device can produce (anything beyond is a broken row, not a fall).
    private struct Builder {
        /// ±4e18 ns (±126 years): epoch times in any unit fit, and so does the difference of any two.
        static let timeLimit = 4e18
        /// Ten times the widest accelerometer range sold (±200 g), and of gyroscopes (±4000 °/s).
        static let accelerationLimit = 2000.0
        static let angularRateLimit = 40_000.0

        /// "time 1658348227683 s is beyond ±126 years; ... it looks like epoch milliseconds: give
        /// the time unit ms", naming where that is set.
        static func timeProblem(_ value: Double, unit: CSVFormat.TimeUnit) -> String {
            let base = "time \(value) \(unit.rawValue) is beyond ±126 years"
            let finer: [(CSVFormat.TimeUnit, String)] = [(.milliseconds, "milliseconds"), (.microseconds, "microseconds"), (.nanoseconds, "nanoseconds")]
            for (candidate, name) in finer where candidate.nanoseconds < unit.nanoseconds && abs(value * candidate.nanoseconds) <= timeLimit {
                return base + "; it looks like epoch \(name): give the time unit \(candidate.rawValue) (replay --csv-time-unit \(candidate.rawValue), or [units] time = \"\(candidate.rawValue)\" in a dataset description); row skipped"
            }
            return base + "; row skipped"
        }

        let format: CSVFormat
        let path: String
        /// Per field (time?, ax, ay, az, gx?, gy?, gz?, label?), where its value is in a parsed row.
        let slots: [Int]
        let period: Double
        /// The sample period in whole nanoseconds when it is one (50 Hz: 20 000 000), so that
        /// timestamps without a time column are a multiplication, not a rounding per row.
        let wholePeriod: Int64?
        let base: Int
        let timeSlot: Int?
        let timeNanoseconds: Double
        /// Per body axis, the slot of the sensor column it takes and the factor that carries the
        /// scale, the unit and the axis mapping's sign: the mapping costs nothing per row.
        let accelerationSlots: (Int, Int, Int)
        let accelerationFactors: SIMD3<Double>
        let angularRateSlots: (Int, Int, Int)?
        let angularRateFactors: SIMD3<Double>
        /// Where the label is in a parsed row, or nil.
        let labelSlot: Int?
        /// Where samples go, one per row kept (the caller sizes it for every line), and how many.
        let storage: UnsafeMutableBufferPointer<IMUSample>
        var count = 0
        var labels: [Int16] = []
        var problems: [FallDetectError] = []
        var lastTime: Int64?
        /// The time value of the first row kept, in the file's unit.
        var firstTime: Double?

        init(format: CSVFormat, path: String, slots: [Int], storage: UnsafeMutableBufferPointer<IMUSample>) {
            self.format = format
            self.storage = storage
            self.path = path
            self.slots = slots
            period = 1e9 / format.sampleRate
            wholePeriod = period == period.rounded() && period >= 1 && period < 1e15 ? Int64(period) : nil
            base = format.time != nil ? 1 : 0
            timeSlot = format.time != nil ? slots[0] : nil
            timeNanoseconds = format.timeUnit.nanoseconds
            let mapping = format.axisMapping
            let k = format.accelerationScale * format.accelerationUnit.toG
            let r = format.angularRateScale * format.angularRateUnit.toDegreesPerSecond
            let base = base
            func slot(_ axis: AxisMapping.SignedAxis, from first: Int) -> Int { slots[first + axis.index] }
            func factors(_ f: Double) -> SIMD3<Double> {
                SIMD3(f * Double(mapping.x.sign), f * Double(mapping.y.sign), f * Double(mapping.z.sign))
            }
            accelerationSlots = (slot(mapping.x, from: base), slot(mapping.y, from: base), slot(mapping.z, from: base))
            accelerationFactors = factors(k)
            angularRateSlots = format.angularRate != nil
                ? (slot(mapping.x, from: base + 3), slot(mapping.y, from: base + 3), slot(mapping.z, from: base + 3)) : nil
            angularRateFactors = factors(r)
            labelSlot = format.label != nil ? slots.last : nil
        }

        /// `count` parsed rows of `width` values each, and their line numbers. Without a time column
        /// (the common case: timestamps from the rate), one loop with the slots and factors in
        /// locals, which the row-by-row path spills to the stack; a row it would refuse, and every
        /// other case, goes through `append(_:line:)`.
        mutating func append(rows values: UnsafePointer<Double>, count rows: Int, width: Int, lines: UnsafePointer<Int>) {
            guard timeSlot == nil, let wholePeriod else {
                for row in 0..<rows { append(values + row * width, line: lines[row]) }
                return
            }
            let (ax, ay, az) = accelerationSlots
            let (gx, gy, gz) = angularRateSlots ?? (0, 0, 0)
            let rated = angularRateSlots != nil
            let fa = accelerationFactors, fw = angularRateFactors
            let g = SIMD3(repeating: Self.accelerationLimit), d = SIMD3(repeating: Self.angularRateLimit)
            let capacity = storage.count
            let before = count
            var kept = count
            for row in 0..<rows {
                let v = values + row * width
                let a = SIMD3(v[ax], v[ay], v[az]) * fa
                let w = rated ? SIMD3(v[gx], v[gy], v[gz]) * fw : .zero
                let label = labelSlot.flatMap { Int16(exactly: v[$0]) }
                guard all((a .<= g) .& (a .>= -g)), all((w .<= d) .& (w .>= -d)), kept < capacity,
                    labelSlot == nil || label != nil
                else {
                    count = kept
                    append(v, line: lines[row]) // reports the row (or keeps it, should it pass there)
                    kept = count
                    continue
                }
                storage.initializeElement(
                    at: kept,
                    to: IMUSample(timestampNanoseconds: Int64(kept) &* wholePeriod, acceleration: SIMD3<Float>(a), angularRate: SIMD3<Float>(w)))
                if let label { labels.append(label) }
                kept += 1
            }
            if kept > before { lastTime = Int64(kept - 1) &* wholePeriod }
            count = kept
        }

        /// `values` is one parsed row in the parser's column order; `line` names it in a problem.
        @inline(__always)
        mutating func append(_ values: UnsafePointer<Double>, line: Int) {
            let timestamp: Int64
            if let timeSlot {
                let raw = values[timeSlot]
                guard abs(raw * timeNanoseconds) <= Self.timeLimit else { return refuseTime(raw, line: line) }
                // From the first row kept, in the file's unit: epoch milliseconds stay exact
                // (scaled to nanoseconds first they would round to 256 ns).
                timestamp = Int64(((raw - (firstTime ?? raw)) * timeNanoseconds).rounded())
                if let lastTime, timestamp <= lastTime { return refuseOrder(line: line) }
            } else if let wholePeriod {
                timestamp = Int64(count) &* wholePeriod
            } else {
                timestamp = Int64((Double(count) * period).rounded())
            }
            let (ax, ay, az) = accelerationSlots
            let a = SIMD3(values[ax], values[ay], values[az]) * accelerationFactors
            var w = SIMD3<Double>.zero
            if let (gx, gy, gz) = angularRateSlots { w = SIMD3(values[gx], values[gy], values[gz]) * angularRateFactors }
            // NaN fails both comparisons, as an infinity does the first.
            let g = SIMD3(repeating: Self.accelerationLimit), d = SIMD3(repeating: Self.angularRateLimit)
            guard all((a .<= g) .& (a .>= -g)), all((w .<= d) .& (w .>= -d)) else {
                return refuseRange(values, line: line)
            }
            // Labels name activities by whole numbers (Int16 in every dataset's labels).
            var label: Int16?
            if let labelSlot {
                label = Int16(exactly: values[labelSlot])
                if label == nil { return refuseLabel(values[labelSlot], line: line) }
            }
            // The storage holds a sample per line; a row is never more than a line, but a broken
            // promise must cost a row, not memory that is not ours.
            guard count < storage.count else { return refuseOverflow(line: line) }
            lastTime = timestamp
            if let timeSlot, firstTime == nil { firstTime = values[timeSlot] }
            storage.initializeElement(
                at: count, to: IMUSample(timestampNanoseconds: timestamp, acceleration: SIMD3<Float>(a), angularRate: SIMD3<Float>(w)))
            count += 1
            if let label { labels.append(label) }
        }

        @inline(never)
        private mutating func refuseTime(_ raw: Double, line: Int) {
            problems.append(FallDetectError(.malformedRow, Self.timeProblem(raw, unit: format.timeUnit), path: path, line: line, field: "time"))
        }

        @inline(never)
        private mutating func refuseOverflow(line: Int) {
            problems.append(FallDetectError(.malformedRow, "more rows than lines in the file; row skipped", path: path, line: line))
        }

        @inline(never)
        private mutating func refuseLabel(_ value: Double, line: Int) {
            problems.append(FallDetectError(
                .malformedRow, "label \(value) is not a whole number from \(Int16.min) to \(Int16.max); row skipped", path: path, line: line,
                field: "label"))
        }

        @inline(never)
        private mutating func refuseOrder(line: Int) {
            problems.append(FallDetectError(.malformedRow, "time does not increase; row skipped", path: path, line: line, field: "time"))
        }

        /// The first field, in column order, beyond what a body-worn sensor can read.
        @inline(never)
        private mutating func refuseRange(_ values: UnsafePointer<Double>, line: Int) {
            let k = format.accelerationScale * format.accelerationUnit.toG
            let r = format.angularRateScale * format.angularRateUnit.toDegreesPerSecond
            for (offset, name) in ["ax", "ay", "az"].enumerated() where !(abs(values[slots[base + offset]] * k) <= Self.accelerationLimit) {
                problems.append(FallDetectError(
                    .malformedRow, "\(values[slots[base + offset]]) is beyond any body-worn accelerometer (\(Int(Self.accelerationLimit)) g); row skipped",
                    path: path, line: line, field: name))
                return
            }
            guard format.angularRate != nil else { return }
            for (offset, name) in ["gx", "gy", "gz"].enumerated() where !(abs(values[slots[base + 3 + offset]] * r) <= Self.angularRateLimit) {
                problems.append(FallDetectError(
                    .malformedRow, "\(values[slots[base + 3 + offset]]) is beyond any body-worn gyroscope (\(Int(Self.angularRateLimit)) °/s); row skipped",
                    path: path, line: line, field: name))
                return
            }
        }
    }

    private struct ResolvedColumn {
        var field: String
        var index: Int
    }

    /// The fields read, in the order `Builder` expects them: time?, ax, ay, az, gx?, gy?, gz?, label?.
    private var wantedColumns: [(String, CSVFormat.Column)] {
        var wanted: [(String, CSVFormat.Column)] = []
        if let time = format.time { wanted.append(("time", time)) }
        wanted += [("ax", format.acceleration.x), ("ay", format.acceleration.y), ("az", format.acceleration.z)]
        if let g = format.angularRate { wanted += [("gx", g.x), ("gy", g.y), ("gz", g.z)] }
        if let label = format.label { wanted.append(("label", label)) }
        return wanted
    }

    private func resolveColumns(header: [String], path: String, line: Int) throws(FallDetectError) -> [ResolvedColumn] {
        var resolved: [ResolvedColumn] = []
        for (field, column) in wantedColumns {
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

    /// A row the C parser handed back, read as the reader always read rows: skipped if blank or a
    /// comment (Unicode whitespace counts here), else its first bad field in field order is reported.
    private func slowRow(
        _ text: UnsafeRawBufferPointer, _ range: Range<Int>, line: Int, columns: [ResolvedColumn], unique: [Int],
        into builder: inout Builder
    ) {
        let lineText = String(decoding: UnsafeRawBufferPointer(rebasing: text[range]), as: UTF8.self)
        if lineText.allSatisfy(\.isWhitespace) || lineText.hasPrefix("#") { return }
        let row = lineText.split(separator: Character(UnicodeScalar(format.delimiter)), omittingEmptySubsequences: false)
        var values = [Double](repeating: 0, count: unique.count)
        for column in columns {
            guard column.index < row.count,
                let value = Double(row[column.index].trimmingCharacters(in: .whitespaces)), value.isFinite
            else {
                let what = column.index < row.count ? "\"\(row[column.index])\" is not a number" : "missing"
                builder.problems.append(FallDetectError(.malformedRow, "\(what); row skipped", path: builder.path, line: line, field: column.field))
                return
            }
            values[unique.firstIndex(of: column.index)!] = value
        }
        values.withUnsafeBufferPointer { builder.append($0.baseAddress!, line: line) }
    }

    /// The byte ranges of a line's fields.
    private func fields(of text: UnsafeRawBufferPointer, _ line: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = line.lowerBound
        for i in line where text[i] == format.delimiter {
            result.append(start..<i)
            start = i + 1
        }
        result.append(start..<line.upperBound)
        return result
    }

    /// Whether a field, without the spaces and tabs around it, is a number as `Double(String)` reads it.
    private static func isNumber(_ text: UnsafeRawBufferPointer, _ field: Range<Int>) -> Bool {
        var lower = field.lowerBound, upper = field.upperBound
        while lower < upper, text[lower] == 0x20 || text[lower] == 0x09 { lower += 1 }
        while upper > lower, text[upper - 1] == 0x20 || text[upper - 1] == 0x09 { upper -= 1 }
        return CSVNumberParser.double(UnsafeRawBufferPointer(rebasing: text[lower..<upper])) != nil
    }

    /// The '\n' that ends the line holding `offset`, or the end of the text.
    private static func lineEnd(of text: UnsafeRawBufferPointer, from offset: Int) -> Int {
        var i = offset
        while i < text.count, text[i] != 0x0A { i += 1 }
        return i
    }

    /// The first line that is neither blank nor a comment: its 1-based number and its bytes without
    /// the line ending ('\n', and one '\r' before it). Lines end at '\n' whether or not '\r' precedes it.
    private static func firstLine(of text: UnsafeRawBufferPointer) -> (line: Int, start: Int, end: Int)? {
        var start = 0
        var number = 1
        while start < text.count {
            let newline = lineEnd(of: text, from: start)
            var end = newline
            if end > start, text[end - 1] == 0x0D { end -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            if !(line.allSatisfy(\.isWhitespace) || line.hasPrefix("#")) { return (number, start, end) }
            start = newline + 1
            number += 1
        }
        return nil
    }
}

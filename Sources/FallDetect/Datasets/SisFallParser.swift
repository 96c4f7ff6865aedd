import CFusion
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads SisFall's text rows (`  17, -179,  -99, …;\r\n`) into Int16 values with CFusion's parser.
///
/// Results are row-major with nine values per row: ADXL345 x,y,z, ITG3200 x,y,z, MMA8451Q x,y,z
/// (raw counts; `SisFallTrial` converts them to units). The first malformed row stops the parse
/// with a `FallDetectError` of code `.malformedRow` that names the path, line and field.
public enum SisFallParser {
    /// The parser's implementations; all give the same results, `.automatic` the fastest.
    public enum Kernel: Sendable, CaseIterable {
        case automatic, scalar, swar, vector

        var c: cfusion_sisfall_kernel {
            switch self {
            case .automatic: CFUSION_SISFALL_KERNEL_AUTO
            case .scalar: CFUSION_SISFALL_KERNEL_SCALAR
            case .swar: CFUSION_SISFALL_KERNEL_SWAR
            case .vector: CFUSION_SISFALL_KERNEL_VECTOR
            }
        }
    }

    /// Values per row.
    public static let columns = 9

    /// What each column holds, for error messages.
    public static let columnNames = [
        "ADXL345 x", "ADXL345 y", "ADXL345 z", "ITG3200 x", "ITG3200 y", "ITG3200 z",
        "MMA8451Q x", "MMA8451Q y", "MMA8451Q z",
    ]

    /// Parses a whole text; returns `rows * 9` values.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, path: String? = nil, kernel: Kernel = .automatic
    ) throws -> [Int16] {
        let capacity = cfusion_sisfall_max_rows(bytes.count)
        var result = cfusion_sisfall_result()
        let values = [Int16](unsafeUninitializedCapacity: capacity * columns) { buffer, count in
            result = cfusion_sisfall_parse_kernel(bytes.baseAddress, bytes.count, buffer.baseAddress, capacity, kernel.c)
            count = result.rows * columns
        }
        if result.status != CFUSION_SISFALL_OK.rawValue { throw error(result, path: path) }
        return values
    }

    /// Parses into a caller-owned buffer that is reused across calls (no allocation once it is
    /// large enough): returns the row count; `values[0..<rows * 9]` hold the rows. The buffer
    /// keeps its full length (the parser's upper bound for this text), so do not use its `count`.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, into values: inout [Int16], path: String? = nil, kernel: Kernel = .automatic
    ) throws -> Int {
        let capacity = cfusion_sisfall_max_rows(bytes.count)
        if values.count < capacity * columns {
            values.append(contentsOf: repeatElement(0, count: capacity * columns - values.count))
        }
        let result = values.withUnsafeMutableBufferPointer { buffer in
            cfusion_sisfall_parse_kernel(bytes.baseAddress, bytes.count, buffer.baseAddress, capacity, kernel.c)
        }
        if result.status != CFUSION_SISFALL_OK.rawValue { throw error(result, path: path) }
        return result.rows
    }

    public static func parse(_ data: Data, path: String? = nil, kernel: Kernel = .automatic) throws -> [Int16] {
        try data.withUnsafeBytes { try parse($0, path: path, kernel: kernel) }
    }

    public static func parse(_ bytes: [UInt8], path: String? = nil, kernel: Kernel = .automatic) throws -> [Int16] {
        try bytes.withUnsafeBytes { try parse($0, path: path, kernel: kernel) }
    }

    /// Reads and parses a file.
    public static func parse(contentsOf path: String, kernel: Kernel = .automatic) throws -> [Int16] {
        try parse(readFile(path), path: path, kernel: kernel)
    }

    /// Parses a trial that may hold damaged rows: each malformed row is reported and replaced by
    /// the row before it (the first by the next), so the 200 Hz time base and the per-row labels
    /// stay aligned; the rest of the trial is read. A text where more than a tenth of the rows
    /// (and more than ten) are malformed is not a SisFall trial: its first error is thrown.
    public static func parseKeepingGoodRows(
        _ bytes: UnsafeRawBufferPointer, path: String? = nil
    ) throws -> (values: [Int16], malformed: [FallDetectError]) {
        var values: [Int16] = []
        var malformed: [FallDetectError] = []
        var start = 0
        var linesBefore = 0
        // Rows standing for bad rows before the first good one: they take its values.
        var leadingPlaceholders = 0
        while start < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
            let capacity = cfusion_sisfall_max_rows(rest.count)
            var result = cfusion_sisfall_result()
            let part = [Int16](unsafeUninitializedCapacity: capacity * columns) { buffer, count in
                result = cfusion_sisfall_parse(rest.baseAddress, rest.count, buffer.baseAddress, capacity)
                count = result.rows * columns
            }
            values += part
            if leadingPlaceholders > 0, values.count > leadingPlaceholders * columns {
                let good = Array(values[leadingPlaceholders * columns..<(leadingPlaceholders + 1) * columns])
                for row in 0..<leadingPlaceholders { values.replaceSubrange(row * columns..<(row + 1) * columns, with: good) }
                leadingPlaceholders = 0
            }
            if result.status == CFUSION_SISFALL_OK.rawValue { break }
            guard result.status != CFUSION_SISFALL_CAPACITY.rawValue else { throw error(result, path: path) }
            var shifted = result
            shifted.line += linesBefore
            malformed.append(error(shifted, path: path))
            let rows = values.count / columns
            if malformed.count > 10, malformed.count * 10 > rows + malformed.count {
                throw malformed[0]
            }
            if rows > 0, leadingPlaceholders == 0 {
                values += values.suffix(columns)
            } else {
                values += repeatElement(0, count: columns)
                leadingPlaceholders += 1
            }
            // Go on after the bad line's newline; a bad last line ends the text.
            guard let next = Self.offset(afterLine: result.line, in: rest) else { break }
            start += next
            linesBefore += result.line
        }
        if leadingPlaceholders > 0 { values.removeAll() }  // not one good row
        return (values, malformed)
    }

    /// The offset just past the `line`-th newline (1-based), or nil when the text ends first.
    private static func offset(afterLine line: Int, in text: UnsafeRawBufferPointer) -> Int? {
        var seen = 0
        for (i, byte) in text.enumerated() where byte == UInt8(ascii: "\n") {
            seen += 1
            if seen == line { return i + 1 < text.count ? i + 1 : nil }
        }
        return nil
    }

    /// The error for a failed C parse: `path:line: field N (sensor axis): reason at column C`.
    static func error(_ r: cfusion_sisfall_result, path: String?) -> FallDetectError {
        let reason = String(cString: cfusion_sisfall_status_text(r.status))
        var field: String?
        if r.field >= 1 && r.field <= 9 {
            field = "field \(r.field) (\(columnNames[Int(r.field) - 1]))"
        } else if r.field == 10 {
            field = "field 10"
        }
        let code: FallDetectError.Code =
            r.status == CFUSION_SISFALL_CAPACITY.rawValue ? .invalidArgument : .malformedRow
        return FallDetectError(code, "\(reason) at column \(r.column)", path: path, line: r.line, field: field)
    }

    /// The whole file in memory.
    public static func readFile(_ path: String) throws -> [UInt8] {
        try FileContents.read(path, what: "file")
    }
}

extension SisFallParser {
    /// Parses an enhanced label file: one of 0, 1, 2 per line (LF or CRLF; spaces around the digit
    /// and trailing blank lines are accepted).
    public static func parseLabels(_ bytes: UnsafeRawBufferPointer, path: String? = nil) throws -> [UInt8] {
        var labels = [UInt8]()
        labels.reserveCapacity(bytes.count / 2 + 1)
        var line = 1
        var value: UInt8?  // the current line's label
        var blankLine = 0  // first blank line in a run, for the error if a label follows it
        func fail(_ why: String) -> FallDetectError {
            FallDetectError(.malformedRow, why, path: path, line: line, field: "label")
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "2"):
                if value != nil { throw fail("more than one character in a label") }
                if blankLine != 0 {
                    line = blankLine
                    throw fail("blank line before more labels")
                }
                value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "\n"):
                if let v = value {
                    labels.append(v)
                } else if blankLine == 0 {
                    blankLine = line
                }
                value = nil
                line += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            default:
                throw fail("unexpected byte \(byte) (labels are 0, 1 or 2)")
            }
        }
        if let v = value { labels.append(v) }
        return labels
    }

    public static func parseLabels(contentsOf path: String) throws -> [UInt8] {
        try readFile(path).withUnsafeBytes { try parseLabels($0, path: path) }
    }
}

import CFusion

/// CFusion's CSV row parser (cfusion_csv.h) over a whole text, with everything each call gave kept:
/// what the kernel-agreement tests and the `csv` fuzz target compare. `CSVRecordingReader` calls
/// the C parser itself, with buffers it reuses, and turns rows into samples as they come.
public enum CSVRowParser {
    /// The parser's implementations; both give the same results, `.automatic` the fastest.
    public enum Kernel: Sendable, CaseIterable {
        case automatic, scalar, vector

        var c: cfusion_csv_kernel {
            switch self {
            case .automatic: CFUSION_CSV_KERNEL_AUTO
            case .scalar: CFUSION_CSV_KERNEL_SCALAR
            case .vector: CFUSION_CSV_KERNEL_VECTOR
            }
        }
    }

    /// A row the parser handed back: after how many good rows, its line and its bytes.
    public struct BadRow: Equatable, Sendable {
        public var afterRows: Int
        public var line: Int
        public var bytes: Range<Int>
    }

    /// What one pass read, in order.
    public struct Rows: Equatable, Sendable {
        /// Per row read, its 1-based line number.
        public var lines: [Int] = []
        /// The rows' values, row-major, as bit patterns (so that -0 and 0 differ).
        public var values: [UInt64] = []
        public var bad: [BadRow] = []
    }

    /// Every row of `text`, the 0-based `columns` (at least one, strictly increasing) of each, in
    /// calls of at most `capacity` rows (at least 1), so that where one call ends and the next
    /// begins is read too.
    public static func rows(
        _ text: UnsafeRawBufferPointer, columns: [Int32], delimiter: UInt8, capacity: Int, kernel: Kernel = .automatic
    ) -> Rows {
        precondition(!columns.isEmpty && zip(columns, columns.dropFirst()).allSatisfy { $0 < $1 } && capacity >= 1)
        var result = Rows()
        var values = [Double](repeating: 0, count: capacity * columns.count)
        var lines = [Int](repeating: 0, count: capacity)
        var offset = 0, line = 1
        while true {
            let r = cfusion_csv_parse_rows_kernel(
                text.baseAddress, text.count, offset, line, delimiter, columns, columns.count, &values, &lines, capacity, kernel.c)
            result.lines += lines[0..<r.rows]
            result.values += values[0..<(r.rows * columns.count)].map(\.bitPattern)
            if r.status == CFUSION_CSV_BAD_ROW.rawValue {
                result.bad.append(BadRow(afterRows: result.lines.count, line: r.bad_line, bytes: r.bad_start..<r.bad_end))
            }
            offset = r.next
            line = r.next_line
            if r.status == CFUSION_CSV_END.rawValue { return result }
        }
    }
}

import Testing
@testable import FallDetect

@Suite struct CSVRowParserTests {
    private func rows(
        _ text: String, columns: [Int32], delimiter: UInt8 = UInt8(ascii: ","), capacity: Int = 8, kernel: CSVRowParser.Kernel = .automatic
    ) -> CSVRowParser.Rows {
        var text = text
        return text.withUTF8 { CSVRowParser.rows(UnsafeRawBufferPointer($0), columns: columns, delimiter: delimiter, capacity: capacity, kernel: kernel) }
    }

    @Test(arguments: CSVRowParser.Kernel.allCases)
    func readsRowsLinesAndBadRowsAcrossCalls(kernel: CSVRowParser.Kernel) {
        // One row a call: the seams fall after every row, before and after the bad one.
        let text = "a,b,c\n1,2,3\n# note\n4,-0,6\r\n7,x,9\n\n10,11,12"
        let read = rows(text, columns: [0, 1], capacity: 1, kernel: kernel)
        #expect(read.lines == [2, 4, 7])
        #expect(read.values == [1, 2, 4, -0.0, 10, 11].map(\.bitPattern))
        let start = text.utf8.count - "7,x,9\n\n10,11,12".utf8.count
        #expect(read.bad == [
            CSVRowParser.BadRow(afterRows: 0, line: 1, bytes: 0..<5),
            CSVRowParser.BadRow(afterRows: 2, line: 5, bytes: start..<(start + 5)),
        ])
    }

    /// A delimiter that a number may hold ends the field all the same, in both kernels and wherever
    /// the row sits (the scalar kernel once read on into the next field).
    @Test(arguments: CSVRowParser.Kernel.allCases)
    func aDelimiterANumberMayHoldEndsTheField(kernel: CSVRowParser.Kernel) {
        for (delimiter, text, expected) in [
            (".", "1.5\n1.5\n1.5\n1.5\n", [1.0, 1, 1, 1]),
            ("5", "15\n15\n", [1, 1]),
            ("e", "1e5\n2e7\n", [1, 2]),
        ] as [(Character, String, [Double])] {
            let read = rows(text, columns: [0], delimiter: delimiter.asciiValue!, kernel: kernel)
            #expect(read.values == expected.map(\.bitPattern), "delimiter \(delimiter)")
        }
        // With '-' as the delimiter, "-5" is an empty field, then 5.
        let dashed = rows("-5\n", columns: [0], delimiter: UInt8(ascii: "-"), kernel: kernel)
        #expect(dashed.values.isEmpty)
        #expect(dashed.bad.count == 1)
    }

    @Test func vectorKernelGivesTheScalarKernelsRows() {
        // Random texts of plain, odd and bad fields, every kind of line ending, comment and blank
        // line, both kernels in small calls: identical rows, line numbers and bad rows.
        let tokens = ["0.918056", "-0.112500", "1e-3", "-2.5E+01", " 3 ", "\t4", "+5", "1.2.3", "nan", "inf", "", "x", "-",
                      "0", "-0", "12345678901234567", "123456789012345.6", "1234567890123456", "0.1234567890123456", ".5",
                      "5.", "0x10", " ", "1e400", "9007199254740993", "00000000000000000001"]
        let separators = [",", ",", ",", ",", "\n", "\r\n", "\n#c\n", "\n\n", "\n  \n", "\r", "  ,", " ,"]
        var rng = CSVNumberParserTests.SplitMix64(state: 7)
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<300, using: &rng) {
                text += tokens.randomElement(using: &rng)! + separators.randomElement(using: &rng)!
            }
            var bytes = Array(text.utf8)
            if Bool.random(using: &rng), !bytes.isEmpty { bytes.removeLast() }
            // Now and then a delimiter a number may hold: a field ends there all the same.
            let delimiter = Array(",,,,,,;.5e-+".utf8).randomElement(using: &rng)!
            if delimiter != UInt8(ascii: ",") { bytes = bytes.map { $0 == UInt8(ascii: ",") ? delimiter : $0 } }
            let columns: [Int32] = [[0, 1, 2], [1, 3, 5], [0, 2, 9]].randomElement(using: &rng)!
            let width = Int.random(in: 1...3, using: &rng)
            let capacity = Int.random(in: 1...50, using: &rng)
            let (scalar, vector) = bytes.withUnsafeBytes { raw in
                (CSVRowParser.rows(raw, columns: Array(columns.prefix(width)), delimiter: delimiter, capacity: capacity, kernel: .scalar),
                 CSVRowParser.rows(raw, columns: Array(columns.prefix(width)), delimiter: delimiter, capacity: capacity, kernel: .vector))
            }
            #expect(scalar == vector, "\(text.debugDescription)")
            if scalar != vector { break }
        }
    }
}

import CFusion
import Foundation
import Testing

@testable import FallDetect

@Suite struct SisFallParserTests {
    static let row1 = "  17, -179,  -99,  -18, -504, -352,   76,-697,-279;"
    static let row2 = "  15,-174, -90, -53,-568,-306,  48,-675,-254;"
    static let values1: [Int16] = [17, -179, -99, -18, -504, -352, 76, -697, -279]
    static let values2: [Int16] = [15, -174, -90, -53, -568, -306, 48, -675, -254]

    /// A good row with values that vary with `i`, for padding tests past the fast path's start.
    static func filler(_ i: Int) -> String {
        (0..<9).map { c in String(format: "%4d", (i * 37 + c * 101) % 4000 - 2000) }.joined(separator: ",") + ";"
    }

    func parseAll(_ text: String) throws -> [[Int16]] {
        try SisFallParser.Kernel.allCases.map { try SisFallParser.parse(Array(text.utf8), kernel: $0) }
    }

    @Test func goodRowsCRLF() throws {
        let text = Self.row1 + "\r\n" + Self.row2 + "\r\n"
        for values in try parseAll(text) { #expect(values == Self.values1 + Self.values2) }
    }

    @Test func lineEndingsAndEndOfText() throws {
        let expected = Self.values1 + Self.values2
        let variants = [
            Self.row1 + "\n" + Self.row2 + "\n",  // LF
            Self.row1 + "\r\n" + Self.row2,  // no final newline
            Self.row1 + "\r\n" + Self.row2 + "\r",  // a lone CR at the very end
            Self.row1 + "\r\n" + Self.row2 + "\r\n\r\n\n  \r\n",  // trailing blank lines
            Self.row1 + "\r\n" + Self.row2 + "\r\n  ",  // as 16 SisFall files end
            Self.row1 + "  \r\n" + Self.row2 + " \t\n",  // spaces after ';'
        ]
        for text in variants {
            for values in try parseAll(text) { #expect(values == expected, "\(text.debugDescription)") }
        }
        for values in try parseAll("") { #expect(values.isEmpty) }
        for values in try parseAll("\r\n\n ") { #expect(values.isEmpty) }
    }

    @Test func valueLimitsAndSpelling() throws {
        let text = "-32768,32767,0,-0,+5,00017,\t-1 , 1\t,-00001;\n" + Self.row1 + "\n"
        for values in try parseAll(text) {
            #expect(values == [-32768, 32767, 0, 0, 5, 17, -1, 1, -1] + Self.values1)
        }
        // The same limits deep in a long text, where the fast path runs.
        var long = (0..<300).map { Self.filler($0) + "\r\n" }.joined()
        long += "-32768, 32767,-32767,    0,   -9,    9,-12345,12345,32767;\r\n"
        for values in try parseAll(long) {
            #expect(values.suffix(9) == [-32768, 32767, -32767, 0, -9, 9, -12345, 12345, 32767])
            #expect(values.count == 301 * 9)
        }
    }

    /// Each kind of malformed row, as the first row, after a few rows, and deep in a long text,
    /// with every kernel: the error names the path, the line and the field.
    @Test(arguments: [
        ("1,2,3,4,5,6,7,8;", "fewer than 9 fields", 9),
        ("1,2,3,4,5,6,7,8,9,10;", "more than 9 fields", 10),
        ("1,2,x3,4,5,6,7,8,9;", "unexpected character", 3),
        ("1,2,3,4,5,6,7,8,9;x", "unexpected character", 0),
        ("1,2,3,4,5 6,6,7,8,9;", "unexpected character", 5),
        ("1,2,3,4,5,6,7,8,32768;", "value outside -32768...32767", 9),
        ("-32769,2,3,4,5,6,7,8,9;", "value outside -32768...32767", 1),
        ("1,2,3,4,5,6,99999999999,8,9;", "value outside -32768...32767", 7),
        ("1,2,3,4,5,6,7,8,9", "missing ';' after the ninth field", 9),
        ("1,,3,4,5,6,7,8,9;", "empty field", 2),
        ("1,2,3,4,5,6,7,8,-;", "unexpected character", 9),
        ("", "blank line before more rows", 0),
    ])
    func malformedRow(bad: String, reason: String, field: Int) throws {
        for goodBefore in [0, 4, 250] {
            let before = (0..<goodBefore).map { Self.filler($0) + "\r\n" }.joined()
            let text = before + bad + "\r\n" + Self.row1 + "\r\n"
            for kernel in SisFallParser.Kernel.allCases {
                let error = #expect(throws: FallDetectError.self) {
                    try SisFallParser.parse(Array(text.utf8), path: "x/D01_SA01_R01.txt", kernel: kernel)
                }
                #expect(error?.code == .malformedRow)
                #expect(error?.path == "x/D01_SA01_R01.txt")
                #expect(error?.line == goodBefore + 1, "\(kernel) \(bad)")
                #expect(error?.message.hasPrefix(reason) == true, "\(kernel) \(bad): \(String(describing: error))")
                if field == 0 {
                    #expect(error?.field == nil)
                } else {
                    #expect(error?.field?.hasPrefix("field \(field)") == true, "\(String(describing: error))")
                }
            }
        }
    }

    /// Damaged rows are reported with their line and replaced by a neighbour; the rest is read.
    @Test func malformedRowsAreReplacedAndTheRestIsRead() throws {
        let text = [Self.row1, "  15,-174, x9, -53,-568,-306,  48,-675,-254;", Self.row2, "garbage", Self.row1].joined(separator: "\r\n") + "\r\n"
        let (values, malformed) = try Array(text.utf8).withUnsafeBytes { try SisFallParser.parseKeepingGoodRows($0, path: "t.txt") }
        #expect(values == Self.values1 + Self.values1 + Self.values2 + Self.values2 + Self.values1)
        #expect(malformed.map(\.line) == [2, 4])
        #expect(malformed.first?.description.hasPrefix("t.txt:2: field 3") == true, "\(malformed)")
        // A bad first row takes the first good one's values; a bad last line without a newline ends it.
        let first = ["oops", Self.row2, "1,2"].joined(separator: "\n")
        let read = try Array(first.utf8).withUnsafeBytes { try SisFallParser.parseKeepingGoodRows($0) }
        #expect(read.values == Self.values2 + Self.values2 + Self.values2)
        #expect(read.malformed.map(\.line) == [1, 3])
        // Several bad rows before the first good one all take its values.
        let two = try Array((["bad", "worse", Self.row1].joined(separator: "\n") + "\n").utf8).withUnsafeBytes {
            try SisFallParser.parseKeepingGoodRows($0)
        }
        #expect(two.values == Self.values1 + Self.values1 + Self.values1)
        // No good row at all: nothing is read.
        #expect(try Array("bad\n".utf8).withUnsafeBytes { try SisFallParser.parseKeepingGoodRows($0) }.values.isEmpty)
    }

    @Test func aTextOfMostlyBadRowsIsNotATrial() {
        let text = (0..<30).map { $0 % 2 == 0 ? Self.row1 : "bad" }.joined(separator: "\n")
        #expect(throws: FallDetectError.self) { try Array(text.utf8).withUnsafeBytes { try SisFallParser.parseKeepingGoodRows($0) } }
    }

    @Test func errorDescriptionIsPathLineField() throws {
        let text = Self.row1 + "\r\n" + "1,2,3,4,5,6,7,8,9\r\n"
        let error = #expect(throws: FallDetectError.self) { try SisFallParser.parse(Array(text.utf8), path: "a.txt") }
        #expect(
            error?.description
                == "a.txt:2: field 9 (MMA8451Q z): missing ';' after the ninth field at column 18")
    }

    @Test func reusedBufferKeepsItsLengthAndHoldsTheRows() throws {
        var buffer: [Int16] = []
        let long = (0..<100).map { Self.filler($0) + "\r\n" }.joined()
        let n = try Array(long.utf8).withUnsafeBytes { try SisFallParser.parse($0, into: &buffer) }
        #expect(n == 100 && buffer.count >= 900)
        #expect(Array(buffer.prefix(900)) == (try SisFallParser.parse(Array(long.utf8))))
        let length = buffer.count
        let short = Self.row2 + "\n"
        let m = try Array(short.utf8).withUnsafeBytes { try SisFallParser.parse($0, into: &buffer) }
        #expect(m == 1 && buffer.count == length && Array(buffer.prefix(9)) == Self.values2)
        #expect(throws: FallDetectError.self) {
            try Array("1,2;\n".utf8).withUnsafeBytes { try SisFallParser.parse($0, into: &buffer) }
        }
    }

    @Test func capacityIsReportedNotOverrun() {
        let text = Array((Self.row1 + "\n" + Self.row2 + "\n").utf8)
        var out = [Int16](repeating: 0, count: 9)
        for kernel: cfusion_sisfall_kernel in [
            CFUSION_SISFALL_KERNEL_SCALAR, CFUSION_SISFALL_KERNEL_SWAR, CFUSION_SISFALL_KERNEL_VECTOR,
        ] {
            let r = cfusion_sisfall_parse_kernel(text, text.count, &out, 1, kernel)
            #expect(r.status == CFUSION_SISFALL_CAPACITY.rawValue)
            #expect(r.rows == 1 && r.line == 2)
            #expect(out == Self.values1)
        }
    }

    @Test func labels() throws {
        func parse(_ s: String) throws -> [UInt8] { try Array(s.utf8).withUnsafeBytes { try SisFallParser.parseLabels($0) } }
        #expect(try parse("0\n0\n1\n2\n") == [0, 0, 1, 2])
        #expect(try parse("0\r\n2") == [0, 2])
        #expect(try parse("1\n\n \n") == [1])
        let error = #expect(throws: FallDetectError.self) {
            try Array("0\n3\n".utf8).withUnsafeBytes { try SisFallParser.parseLabels($0, path: "l.txt") }
        }
        #expect(error?.line == 2 && error?.path == "l.txt")
        #expect(throws: FallDetectError.self) { try parse("0\n\n1\n") }
        #expect(throws: FallDetectError.self) { try parse("01\n") }
    }

    // MARK: - Randomised round trip against a reference written here

    /// The grammar of cfusion_sisfall.h, written plainly: one row at a time, one byte at a time.
    struct Reference {
        var values: [Int16] = []
        var status: Int32 = 0
        var line = 0
        var field: Int32 = 0

        init(_ t: [UInt8]) { self = Self.parse(t) }

        static func parse(_ t: [UInt8]) -> Reference {
            var r = Reference(values: [], status: 0, line: 0, field: 0)
            func fail(_ s: cfusion_sisfall_status, _ rows: Int, _ f: Int) -> Reference {
                r.status = Int32(s.rawValue)
                r.line = rows + 1
                r.field = Int32(f)
                return r
            }
            let n = t.count
            func space(_ c: UInt8) -> Bool { c == 32 || c == 9 }
            func digit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
            func lineEnd(_ p: Int) -> Bool { p >= n || t[p] == 10 || (t[p] == 13 && (p + 1 == n || t[p + 1] == 10)) }
            var p = 0
            var rows = 0
            rowLoop: while p < n {
                var q = p
                while q < n && (space(t[q]) || t[q] == 13) { q += 1 }
                if q == n { break }
                if t[q] == 10 {
                    while q < n && (space(t[q]) || t[q] == 13 || t[q] == 10) { q += 1 }
                    if q == n { break }
                    return fail(CFUSION_SISFALL_EMPTY_LINE, rows, 0)
                }
                var row: [Int16] = []
                for f in 0..<9 {
                    while p < n && space(t[p]) { p += 1 }
                    var negative = false
                    var signed = false
                    if p < n && (t[p] == 45 || t[p] == 43) {
                        negative = t[p] == 45
                        signed = true
                        p += 1
                    }
                    if p >= n || !digit(t[p]) {
                        if !signed && lineEnd(p) { return fail(CFUSION_SISFALL_TOO_FEW_FIELDS, rows, f + 1) }
                        if !signed && (t[p] == 44 || t[p] == 59) { return fail(CFUSION_SISFALL_EMPTY_FIELD, rows, f + 1) }
                        return fail(CFUSION_SISFALL_BAD_CHARACTER, rows, f + 1)
                    }
                    var v = 0
                    while p < n && digit(t[p]) {
                        v = min(v * 10 + Int(t[p] - 48), 1_000_000)
                        p += 1
                    }
                    if v > (negative ? 32768 : 32767) { return fail(CFUSION_SISFALL_OUT_OF_RANGE, rows, f + 1) }
                    row.append(Int16(negative ? -v : v))
                    while p < n && space(t[p]) { p += 1 }
                    if f < 8 {
                        if p < n && t[p] == 44 {
                            p += 1
                            continue
                        }
                        if lineEnd(p) || t[p] == 59 { return fail(CFUSION_SISFALL_TOO_FEW_FIELDS, rows, f + 2) }
                        return fail(CFUSION_SISFALL_BAD_CHARACTER, rows, f + 1)
                    }
                    if p < n && t[p] == 59 {
                        p += 1
                        break
                    }
                    if p < n && t[p] == 44 { return fail(CFUSION_SISFALL_TOO_MANY_FIELDS, rows, 10) }
                    if lineEnd(p) { return fail(CFUSION_SISFALL_MISSING_SEMICOLON, rows, 9) }
                    return fail(CFUSION_SISFALL_BAD_CHARACTER, rows, 9)
                }
                while p < n && space(t[p]) { p += 1 }
                if p < n && t[p] == 13 { p += 1 }
                if p < n {
                    if t[p] != 10 { return fail(CFUSION_SISFALL_BAD_CHARACTER, rows, 0) }
                    p += 1
                }
                r.values += row
                rows += 1
                continue rowLoop
            }
            return r
        }

        init(values: [Int16], status: Int32, line: Int, field: Int32) {
            self.values = values
            self.status = status
            self.line = line
            self.field = field
        }
    }

    /// Random SisFall-like texts (value widths, padding, signs, CRLF or LF, tabs, '+', leading
    /// zeros), a third of them damaged by one random edit; every kernel must agree with the
    /// reference on values, status, line and field.
    @Test func randomizedRoundTripAgainstReference() {
        var rng = SplitMix(seed: 0x5EED_F411)
        let kernels = [CFUSION_SISFALL_KERNEL_SCALAR, CFUSION_SISFALL_KERNEL_SWAR, CFUSION_SISFALL_KERNEL_VECTOR]
        let alphabet = Array(" \t-+,;\r\n0123456789x.".utf8) + [0, 255]
        var checked = 0
        var damaged = 0
        for doc in 0..<1500 {
            var isDamaged = false
            let rows = doc % 10 == 0 ? Int(rng.next() % 600) : Int(rng.next() % 40)
            let crlf = rng.next() % 4 != 0
            var text: [UInt8] = []
            var expected: [Int16] = []
            for _ in 0..<rows {
                for c in 0..<9 {
                    let value = Self.randomValue(&rng)
                    expected.append(value)
                    text += Self.spell(value, &rng)
                    text.append(c < 8 ? 44 : 59)
                }
                if rng.next() % 50 == 0 { text += [32] }
                text += crlf ? [13, 10] : [10]
            }
            if rows > 0 && rng.next() % 8 == 0 { text.removeLast(crlf ? 2 : 1) }  // no final newline
            if rng.next() % 10 == 0 { text += Array("\r\n  \n".utf8) }
            if !text.isEmpty && rng.next() % 3 == 0 {
                damaged += 1
                isDamaged = true
                let at = Int(rng.next() % UInt64(text.count))
                switch rng.next() % 3 {
                case 0: text.remove(at: at)
                case 1: text.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                default: text[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            let reference = Reference(text)
            if !isDamaged { #expect(reference.values == expected) }
            let capacity = cfusion_sisfall_max_rows(text.count)
            for kernel in kernels {
                var out = [Int16](repeating: 0, count: capacity * 9)
                let r = cfusion_sisfall_parse_kernel(text, text.count, &out, capacity, kernel)
                #expect(r.status == reference.status, "doc \(doc) kernel \(kernel.rawValue)")
                #expect(r.line == reference.line, "doc \(doc) kernel \(kernel.rawValue)")
                #expect(r.field == reference.field, "doc \(doc) kernel \(kernel.rawValue)")
                let good = reference.status == 0 ? reference.values.count : Int(r.rows) * 9
                #expect(Int(r.rows) * 9 == good)
                #expect(Array(out.prefix(good)) == Array(reference.values.prefix(good)), "doc \(doc) kernel \(kernel.rawValue)")
                checked += 1
            }
        }
        #expect(checked == 4500)
        #expect(damaged > 400)
    }

    static func randomValue(_ rng: inout SplitMix) -> Int16 {
        switch rng.next() % 8 {
        case 0: Int16.min
        case 1: Int16.max
        case 2: Int16(truncatingIfNeeded: rng.next())
        default: Int16(Int(rng.next() % 2001) - 1000)
        }
    }

    /// A value as SisFall writes it (right-aligned in 4 characters) or, now and then, otherwise.
    static func spell(_ v: Int16, _ rng: inout SplitMix) -> [UInt8] {
        let digits = String(abs(Int(v)))
        switch rng.next() % 12 {
        case 0: return Array(((v < 0 ? "-" : "+") + digits).utf8)
        case 1: return Array("\t\(v) ".utf8)
        case 2: return Array("\((v < 0 ? "-" : ""))000\(digits)".utf8)
        case 3: return Array(String(repeating: " ", count: Int(rng.next() % 9)).utf8) + Array("\(v)".utf8)
        default: return Array(String(format: "%4d", Int(v)).utf8)
        }
    }

    /// The project's seedable generator, so a failing fuzz case can be replayed.
    typealias SplitMix = SplitMix64
}

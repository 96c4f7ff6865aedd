import CFusion
import Foundation
import Testing
@testable import FallDetect

@Suite struct CSVNumberParserTests {
    /// A small seeded generator, so that a failure can be replayed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Texts of every shape a CSV number takes: fixed, scientific, shortest round trip, 17 digits,
    /// signs, leading zeros, long mantissas, huge and tiny exponents.
    static func samples(count: Int) -> [String] {
        var rng = SplitMix64(state: 42)
        var texts: [String] = []
        for i in 0..<count {
            let magnitude = Double.random(in: -30...30, using: &rng)
            let value = (Bool.random(using: &rng) ? -1 : 1) * Double.random(in: 1...10, using: &rng) * pow(10, magnitude.rounded())
            switch i % 8 {
            case 0: texts.append(String(format: "%.\(Int.random(in: 0...9, using: &rng))f", value / 1e25))
            case 1: texts.append(String(format: "%.\(Int.random(in: 0...20, using: &rng))e", value))
            case 2: texts.append("\(value)")
            case 3: texts.append(String(format: "%.17g", value))
            case 4: texts.append(String(format: "%+.6f", Double.random(in: -20...20, using: &rng)))
            case 5:
                let digits = (0..<Int.random(in: 15...40, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
                texts.append("0.\(digits)E\(Int.random(in: -330...310, using: &rng))")
            case 6: texts.append(String(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng)))
            default: texts.append("\(Int.random(in: 0...999, using: &rng)).\(String(format: "%06d", Int.random(in: 0...999_999, using: &rng)))e\(Int.random(in: -25...25, using: &rng))")
            }
        }
        return texts
    }

    @Test func equalsDoubleOfStringOnManyValues() {
        var mismatches: [String] = []
        for text in Self.samples(count: 40_000) {
            let ours = CSVNumberParser.double(text)
            let swift = Double(text)
            if ours?.bitPattern != swift?.bitPattern { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test(arguments: [
        ("1e-3", 1e-3), ("-2.5E+01", -25), ("+4", 4), ("+.5", 0.5), ("1.", 1), ("-0", -0.0), ("007", 7),
        ("0.918056", 0.918056), ("-0.112500", -0.1125), ("1E5", 1e5), ("4.9e-324", .leastNonzeroMagnitude), ("1e-400", 0),
        ("9007199254740993", 9007199254740992), ("0.1000000000000000055511151231257827", 0.1),
        ("0x1p-2", 0.25), ("17976931348623157" + String(repeating: "0", count: 292), .greatestFiniteMagnitude),
    ])
    func readsDecimalForms(_ text: String, _ expected: Double) {
        #expect(CSVNumberParser.double(text)?.bitPattern == expected.bitPattern)
        #expect(CSVNumberParser.double(text)?.bitPattern == Double(text)?.bitPattern)
    }

    @Test(arguments: ["", " 1", "1 ", "1.2.3", "1e", "1e+", "+-1", "--1", ".", "-", "abc", "1,5", "0x", "1_000", "\t2"])
    func refusesWhatDoubleRefuses(_ text: String) {
        #expect(CSVNumberParser.double(text) == nil)
        #expect(Double(text) == nil)
    }

    @Test(arguments: ["nan", "inf", "-inf", "Infinity", "1e400", "-1e999"])
    func readsNonFiniteFormsAsDoubleDoes(_ text: String) {
        let ours = CSVNumberParser.double(text)
        #expect(ours != nil && ours?.isFinite == false)
        #expect(ours?.isNaN == Double(text)?.isNaN && ours?.sign == Double(text)?.sign)
    }

    @Test func shortFieldsOfEveryShapeEqualDoubleOfString() {
        // The 64-bit word path: 1 to 8 digits, a dot anywhere or none, a sign or none, after fields
        // of other lengths (the word holds their bytes too); each value as Double(String) reads it.
        var rng = SplitMix64(state: 11)
        var fields: [String] = []
        var text = "a,b\n"
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...8, using: &rng)
            let dot = Int.random(in: -1...digits, using: &rng)
            var field = Bool.random(using: &rng) ? "-" : ""
            for i in 0..<digits {
                if i == dot { field += "." }
                field += String(Int.random(in: 0...9, using: &rng))
            }
            if dot == digits { field += "." }
            fields.append(field)
            text += "\(["7", "12.5", "-0.000001"].randomElement(using: &rng)!),\(field)\n"
        }
        let bytes = Array(text.utf8)
        var values = [Double](repeating: 0, count: fields.count)
        var lines = [Int](repeating: 0, count: fields.count)
        let r = bytes.withUnsafeBytes { b in
            cfusion_csv_parse_rows_kernel(b.baseAddress, b.count, 4, 2, UInt8(ascii: ","), [1], 1, &values, &lines, fields.count, CFUSION_CSV_KERNEL_VECTOR)
        }
        #expect(r.rows == fields.count)
        let mismatches = zip(fields, values).filter { Double($0.0)?.bitPattern != $0.1.bitPattern }.map(\.0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}

/// A parallel label file: one whole number per line, line n for sample n (SisFall_enhanced's
/// 0, 1, 2). Read byte by byte, with no string per line, since a dataset has millions of them.
public enum LabelFile {
    /// Blank lines may end the file but not stand between labels, which would shift every label
    /// after them by a sample.
    public static func read(path: String) throws(FallDetectError) -> [Int16] {
        let data = try FileContents.read(path, what: "label file")
        return try data.withUnsafeBytes { bytes in
            Swift.Result { () throws(FallDetectError) in try parse(bytes, path: path) }
        }.get()
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(FallDetectError) -> [Int16] {
        var labels: [Int16] = []
        labels.reserveCapacity(bytes.count / 2 + 1)
        var line = 1
        var value: Int32 = 0
        var digits = 0
        var negative = false
        var signed = false
        var blank = 0
        func fail(_ why: String, at number: Int) -> FallDetectError {
            FallDetectError(.malformedRow, why, path: path, line: number, field: "label")
        }
        var i = 0
        while i <= bytes.count {
            let byte = i < bytes.count ? bytes[i] : UInt8(ascii: "\n")
            i += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits >= 0 else { throw fail("a space inside a label", at: line) }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= Int32(Int16.max) + 1 else { throw fail("label out of range (\(Int16.min)…\(Int16.max))", at: line) }
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard digits == 0, !signed else { throw fail("a sign inside a label", at: line) }
                negative = byte == UInt8(ascii: "-")
                signed = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                // Spaces after the number end it; a digit after them is refused above.
                if digits > 0 { digits = -digits }
            case UInt8(ascii: "\n"):
                if digits != 0 {
                    if blank != 0 { throw fail("blank line before more labels", at: blank) }
                    let v = negative ? -value : value
                    guard let label = Int16(exactly: v) else { throw fail("label out of range (\(Int16.min)…\(Int16.max))", at: line) }
                    labels.append(label)
                } else if signed {
                    throw fail("a sign without a number", at: line)
                } else if blank == 0, i <= bytes.count {
                    blank = line
                }
                (value, digits, negative, signed) = (0, 0, false, false)
                line += 1
            default:
                throw fail("unexpected byte \(byte) (labels are whole numbers, one a line)", at: line)
            }
        }
        return labels
    }
}

import CFusion

/// One CSV field to a `Double`, with CFusion's byte-level parser (cfusion_csv.h): the value
/// strtod gives in the C locale, and `nil` for text that `Double(String)` would refuse too.
/// `CSVRecordingReader` runs the same parser over whole rows.
public enum CSVNumberParser {
    /// The whole of `bytes` as a number (inf and nan included), or nil. No trimming.
    public static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var value = 0.0
        return cfusion_csv_parse_double(bytes.baseAddress, bytes.count, &value) != 0 ? value : nil
    }

    public static func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { double(UnsafeRawBufferPointer($0)) }
    }
}

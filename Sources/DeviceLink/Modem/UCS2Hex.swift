/// UCS-2 as AT+CSCS="UCS2" wants it: each UTF-16 code unit as four upper-case hex digits. Text
/// mode sends hex rather than raw 16-bit units because raw bytes could contain Ctrl-Z or ESC.
/// Characters beyond the BMP go as surrogate pairs, which phones display correctly.
enum UCS2Hex {
    static func encode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        out.reserveCapacity(text.utf16.count * 4)
        for unit in text.utf16 {
            for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((unit >> UInt16(shift)) & 0xF)]) }
        }
        return out
    }

    /// nil when `hex` is not whole groups of four hex digits.
    static func decode(_ hex: String) -> String? {
        let bytes = Array(hex.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var units: [UInt16] = []
        for start in stride(from: 0, to: bytes.count, by: 4) {
            guard let unit = UInt16(String(decoding: bytes[start..<start + 4], as: UTF8.self), radix: 16) else { return nil }
            units.append(unit)
        }
        return String(decoding: units, as: UTF16.self)
    }
}

/// The GSM 03.38 default alphabet as bytes, for text mode with AT+CSCS="GSM": the modem takes each
/// character as its 7-bit code in one byte.
///
/// Some codes cannot travel through text-mode entry and make `encode` return nil, so the caller
/// falls back to UCS-2: 0x00 ("@", a NUL many modems drop), 0x1A ("Ξ", which is Ctrl-Z and ends
/// the message), 0x1B (the escape to the extension table, which is also ESC and cancels it), and
/// the editing keys of text entry (TS 27.005 §3.5.1): 0x08 ("ò", backspace, which deleted the
/// character before it: "Niccolò" arrived as "Nicco"), 0x0D (a carriage return, which asks for a
/// new prompt) and 0x7F ("à", DEL to some firmware). That means no extension characters
/// (^ { } \ [ ~ ] | €) in GSM mode either.
enum GSMAlphabet {
    /// Index = code.
    static let table: [Unicode.Scalar] = Array(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u{1B}ÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)

    static let codes: [Unicode.Scalar: UInt8] = {
        var map: [Unicode.Scalar: UInt8] = [:]
        for (code, scalar) in table.enumerated() where code != 0x1B { map[scalar] = UInt8(code) }
        return map
    }()

    static let unsendable: Set<UInt8> = [0x00, 0x08, 0x0D, 0x1A, 0x1B, 0x7F]

    /// The bytes for `text`, or nil when a character is outside the basic table or unsendable.
    static func encode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard let code = codes[scalar], !unsendable.contains(code) else { return nil }
            bytes.append(code)
        }
        return bytes
    }

    /// Back to text (what a modem simulator does).
    static func decode(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes where Int(byte) < table.count { text.unicodeScalars.append(table[Int(byte)]) }
        return text
    }
}

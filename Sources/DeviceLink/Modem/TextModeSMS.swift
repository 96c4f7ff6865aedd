import FallDetect

/// How a text goes out through a modem in text mode: the character set, and the parts.
///
/// Text mode (AT+CMGF=1) cannot send a concatenated SMS: the user data header that lets a phone
/// join parts is only reachable in PDU mode. So a long text goes as separate SMS, each a complete
/// message prefixed "(1/3) ", "(2/3) "…, each within the single-SMS limit (160 GSM-7 characters,
/// 70 UCS-2 units, prefix included), split after a space where one falls in the second half. The
/// contact is billed per SMS exactly as for a concatenated one of the same length.
struct TextModeSMS: Equatable {
    enum Charset: String {
        case gsm = "GSM"
        case ucs2 = "UCS2"
    }

    let charset: Charset
    let parts: [String]

    init(_ text: String) {
        // SMSEncoding decides GSM-7 versus UCS-2 as the message layer counted it; GSMAlphabet then
        // rules out what text mode cannot carry (extension characters, "@").
        let gsm = SMSEncoding(text).alphabet == .gsm7 && GSMAlphabet.encode(text) != nil
        charset = gsm ? .gsm : .ucs2
        let limit = gsm ? 160 : 70
        let cost: (Character) -> Int = gsm ? { $0.unicodeScalars.count } : { $0.utf16.count }
        let characters = Array(text)
        let total = characters.reduce(0) { $0 + cost($1) }
        guard total > limit else {
            parts = [text]
            return
        }
        // The prefix's length depends on the part count; grow the guess until the split fits it.
        var count = 2
        while true {
            let chunks = Self.split(characters, cost: cost) { index in limit - "(\(index + 1)/\(count)) ".count }
            if chunks.count <= count {
                parts = chunks.enumerated().map { "(\($0.offset + 1)/\(chunks.count)) " + $0.element }
                return
            }
            count = chunks.count
        }
    }

    /// The bytes of the body as the modem takes them under `charset`.
    func body(_ part: String) -> [UInt8] {
        switch charset {
        case .gsm: GSMAlphabet.encode(part) ?? Array(part.utf8)
        case .ucs2: Array(UCS2Hex.encode(part).utf8)
        }
    }

    private static func split(_ characters: [Character], cost: (Character) -> Int, capacity: (Int) -> Int) -> [String] {
        var chunks: [String] = []
        var start = 0
        while start < characters.count {
            let room = capacity(chunks.count)
            var end = start
            var used = 0
            var lastSpace: Int?
            while end < characters.count, used + cost(characters[end]) <= room {
                used += cost(characters[end])
                if characters[end] == " " { lastSpace = end }
                end += 1
            }
            if end < characters.count, let space = lastSpace, space - start >= room / 2 {
                end = space + 1 // break after the space: words stay whole
            }
            if end == start { end += 1 } // a character wider than the room still has to go somewhere
            chunks.append(String(characters[start..<end]))
            start = end
        }
        return chunks
    }
}

import FallDetect

/// How a text goes out through a modem in text mode: its parts, each with its character set.
///
/// Text mode (AT+CMGF=1) cannot send a concatenated SMS: the user data header that lets a phone
/// join parts is only reachable in PDU mode. So a long text goes as separate SMS, each a complete
/// message prefixed "(1/3) ", "(2/3) "…, each within the single-SMS limit (160 GSM-7 characters,
/// 70 UCS-2 units, prefix included), split after a space where one falls in the second half, or
/// before a word (the map link) that the split would cut and the next part can hold whole.
/// (A concatenated SMS would hold 153 or 67 per part, the header's cost; mixed parts can come to
/// one SMS more or fewer than it.)
///
/// Being separate, each part has its own character set: a name with "ã" makes its part UCS-2 (70
/// units), but the map link after it still goes as GSM-7, whole, in a part of up to 160. With
/// one set for the whole text, the 83-character link was always cut across two UCS-2 SMS that a
/// phone never joins, so it could not be opened.
struct TextModeSMS: Equatable {
    enum Charset: String {
        case gsm = "GSM"
        case ucs2 = "UCS2"
    }

    struct Part: Equatable {
        let charset: Charset
        let text: String
    }

    let parts: [Part]

    /// How a version split texts: a message saved by one (`ModemSession.Submission`) splits the
    /// same way after an upgrade, so its parts keep their bounds and none goes twice.
    enum Layout: Equatable {
        /// The whole text in the charset it needs ("sms-parts").
        case oneCharset
        /// A charset per part, split after a space only in a part's second half ("sms-parts2"):
        /// a link starting 72 to 77 characters into a part was cut in its `#map=` fragment, and
        /// opened the map kilometres away.
        case charsetPerPart
        /// As `charsetPerPart`, and never cutting a word the next part can hold whole.
        case wholeWords
    }

    init(_ text: String, layout: Layout = .wholeWords) {
        let characters = Array(text)
        let single = Self.measure(characters[...])
        guard single.units > single.charset.limit else {
            parts = [Part(charset: single.charset, text: text)]
            return
        }
        let fixed = layout == .oneCharset ? single.charset : nil
        // The prefix's length depends on the part count; grow the guess until the split fits it.
        var count = 2
        while true {
            let chunks = Self.split(characters, fixed: fixed, wholeWords: layout == .wholeWords) { index in "(\(index + 1)/\(count)) ".count }
            if chunks.count <= count {
                parts = chunks.enumerated().map { Part(charset: $0.element.charset, text: "(\($0.offset + 1)/\(chunks.count)) " + $0.element.text) }
                return
            }
            count = chunks.count
        }
    }

    /// The bytes of a part's body as the modem takes them under its charset.
    static func body(_ part: Part) -> [UInt8] {
        switch part.charset {
        case .gsm: GSMAlphabet.encode(part.text) ?? Array(part.text.utf8)
        case .ucs2: Array(UCS2Hex.encode(part.text).utf8)
        }
    }

    /// GSM-7 when every character can go in text mode's GSM set (as the message layer counts it,
    /// and as `GSMAlphabet` allows), else UCS-2; and the length in that set's units.
    private static func measure(_ characters: ArraySlice<Character>) -> (charset: Charset, units: Int) {
        let text = String(characters)
        if SMSEncoding(text).alphabet == .gsm7, GSMAlphabet.encode(text) != nil {
            return (.gsm, characters.reduce(0) { $0 + $1.unicodeScalars.count })
        }
        return (.ucs2, characters.reduce(0) { $0 + $1.utf16.count })
    }

    /// Whether the word at the start of `rest` (up to its space) fits in a part of its own.
    private static func fitsAPart(_ rest: ArraySlice<Character>, fixed: Charset?, room: Int) -> Bool {
        let word = rest.prefix { $0 != " " }
        let gsm = fixed == .gsm || (fixed == nil && word.allSatisfy(isGSM))
        let used = gsm ? word.reduce(0) { $0 + $1.unicodeScalars.count } : word.reduce(0) { $0 + $1.utf16.count }
        return used <= (gsm ? Charset.gsm.limit : Charset.ucs2.limit) - room
    }

    private static func isGSM(_ character: Character) -> Bool {
        let text = String(character)
        return SMSEncoding(text).alphabet == .gsm7 && GSMAlphabet.encode(text) != nil
    }

    private static func split(_ characters: [Character], fixed: Charset?, wholeWords: Bool, prefix: (Int) -> Int) -> [Part] {
        var chunks: [Part] = []
        var start = 0
        while start < characters.count {
            let room = prefix(chunks.count)
            var end = start
            var gsm = fixed != .ucs2
            var septets = 0
            var units = 0
            var lastSpace: Int?
            while end < characters.count {
                let character = characters[end]
                let stillGSM = gsm && (fixed == .gsm || isGSM(character))
                let used = stillGSM ? septets + character.unicodeScalars.count : units + character.utf16.count
                guard used <= (stillGSM ? Charset.gsm.limit : Charset.ucs2.limit) - room else { break }
                gsm = stillGSM
                septets += character.unicodeScalars.count
                units += character.utf16.count
                if character == " " { lastSpace = end }
                end += 1
            }
            let limit = (gsm ? Charset.gsm.limit : Charset.ucs2.limit) - room
            if end < characters.count, let space = lastSpace,
               space - start >= limit / 2 || (wholeWords && fitsAPart(characters[(space + 1)...], fixed: fixed, room: room)) {
                end = space + 1 // break after the space: words (and a link) stay whole
            }
            if end == start { end += 1 } // a character wider than the room still has to go somewhere
            let chunk = characters[start..<end]
            chunks.append(Part(charset: fixed ?? measure(chunk).charset, text: String(chunk)))
            start = end
        }
        return chunks
    }
}

extension TextModeSMS.Charset {
    /// One SMS in text mode: 160 GSM-7 characters or 70 UCS-2 units.
    var limit: Int { self == .gsm ? 160 : 70 }
}

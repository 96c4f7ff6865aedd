import Testing
@testable import DeviceLink
import FallDetect

/// `TextModeSMS` with `GSMAlphabet` and `UCS2Hex`: which character set, and where texts split.
@Suite struct GSMModemTextModeSMSTests {
    @Test func theAlphabetTableIsComplete() {
        #expect(GSMAlphabet.table.count == 128)
        #expect(GSMAlphabet.codes["@"] == 0x00)
        #expect(GSMAlphabet.codes["$"] == 0x02)
        #expect(GSMAlphabet.codes["_"] == 0x11)
        #expect(GSMAlphabet.codes["A"] == 0x41)
        #expect(GSMAlphabet.codes["à"] == 0x7F)
        #expect(GSMAlphabet.decode(GSMAlphabet.encode("Zoé £5 _x_") ?? []) == "Zoé £5 _x_")
    }

    @Test func charactersTextModeCannotCarryForceUCS2() {
        #expect(GSMAlphabet.encode("mail me @ home") == nil) // @ is NUL
        #expect(GSMAlphabet.encode("ΞΞ") == nil) // Ξ is Ctrl-Z
        #expect(GSMAlphabet.encode("[1]") == nil) // extension table needs ESC
        #expect(TextModeSMS("a [b]").parts.map(\.charset) == [.ucs2])
        #expect(TextModeSMS("plain text").parts.map(\.charset) == [.gsm])
        #expect(TextModeSMS("Łódź").parts.map(\.charset) == [.ucs2])
    }

    /// Text entry's editing keys are GSM codes of letters: as GSM, "Niccolò" arrived as "Nicco"
    /// (0x08 is backspace), and "à" (0x7F) or a carriage return fare no better.
    @Test func lettersThatAreEditingKeysForceUCS2() {
        for text in ["Niccolò", "à la maison", "line\rbreak"] {
            #expect(GSMAlphabet.encode(text) == nil, "\(text)")
            #expect(TextModeSMS(text).parts.map(\.charset) == [.ucs2], "\(text)")
        }
        #expect(GSMAlphabet.encode("Zoé, Ñandù\n") != nil, "other accented letters and a newline stay GSM")
    }

    /// A link starting 72 to 77 characters into a part was cut in its `#map=` fragment (the space
    /// before it fell in the part's first half, where no break was made): the map opened on
    /// longitude -7 instead of -74.00597. It now goes whole in the next part; a message saved
    /// before ("sms-parts2") still splits as it did, so its parts keep their bounds.
    @Test func aLinkNearAPartsMiddleGoesWholeInTheNextPart() {
        let link = "https://www.openstreetmap.org/?mlat=40.71278&mlon=-74.00597#map=17/40.71278/-74.00597"
        let text = "Location update: Jane Doe was last at 40.71278, -74.00597 at 09:05 GMT-5. " + link + " Reply STOP to end updates."
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 2 && sms.parts[1].text.contains(link), "\(sms.parts)")
        #expect(sms.parts.map { $0.text.drop(while: { $0 != " " }).dropFirst() }.joined() == text)
        #expect(sms.parts.allSatisfy { $0.text.count <= 160 })
        let saved = TextModeSMS(text, layout: .charsetPerPart)
        #expect(!saved.parts.contains { $0.text.contains(link) }, "the old split, kept for messages saved by it")
        // A word longer than a part is still cut where the part ends.
        let long = String(repeating: "x", count: 200)
        #expect(TextModeSMS("Help " + long).parts.map { $0.text.count } == [160, 57])
    }

    /// A name outside GSM-7 ("João") makes its part UCS-2, 70 units; the map link, in a part of
    /// its own charset, stays whole and can be opened. With one charset for the whole text the
    /// 83-character link was cut across two SMS, which phones never join.
    @Test func eachPartHasItsOwnCharsetAndTheLinkStaysWhole() {
        let link = "https://www.openstreetmap.org/?mlat=38.71234&mlon=-9.13456#map=17/38.71234/-9.13456"
        let text = "Emergency: João Pereira may have fallen and needs help. Last known location was "
            + "Rua Augusta 100, Lisboa 38.71234, -9.13456 at 14:05 WET on 22 Nov. " + link
        let sms = TextModeSMS(text)
        #expect(sms.parts.contains { $0.charset == .ucs2 && $0.text.contains("João") })
        let withLink = sms.parts.filter { $0.text.contains(link) }
        #expect(withLink.count == 1 && withLink.first?.charset == .gsm, "\(sms.parts)")
        for part in sms.parts {
            #expect(part.charset == .gsm ? part.text.count <= 160 : part.text.utf16.count <= 70, "\(part)")
        }
        #expect(sms.parts.map { $0.text.drop(while: { $0 != " " }).dropFirst() }.joined() == text)
    }

    @Test func ucs2HexRoundTripsIncludingSurrogates() {
        #expect(UCS2Hex.encode("A€") == "004120AC")
        #expect(UCS2Hex.encode("😀") == "D83DDE00")
        #expect(UCS2Hex.decode("D83DDE00") == "😀")
        #expect(UCS2Hex.decode("00Z1") == nil)
        #expect(UCS2Hex.decode("004") == nil)
    }

    @Test func shortTextsAreOnePartWithoutPrefix() {
        let text = String(repeating: "a", count: 160)
        #expect(TextModeSMS(text).parts.map(\.text) == [text])
        let ucs2 = String(repeating: "ł", count: 70)
        #expect(TextModeSMS(ucs2).parts.map(\.text) == [ucs2])
    }

    @Test func longGSMTextsSplitIntoNumberedSMSOfAtMost160() {
        let text = String(repeating: "word ", count: 80) // 400 characters
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        for (index, part) in sms.parts.map(\.text).enumerated() {
            #expect(part.hasPrefix("(\(index + 1)/3) "))
            #expect(part.count <= 160)
            #expect(!part.dropFirst(6).hasPrefix(" ")) // split after a space, not inside a word
        }
        #expect(sms.parts.map { $0.text.dropFirst(6) }.joined() == text)
    }

    @Test func longUCS2TextsSplitIntoSMSOfAtMost70Units() {
        let text = String(repeating: "Łódź ", count: 30) // 150 units
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        for part in sms.parts { #expect(part.text.utf16.count <= 70) }
        #expect(sms.parts.map { $0.text.dropFirst(6) }.joined() == text)
    }

    @Test func surrogatePairsAreNeverCutInHalf() {
        let text = String(repeating: "😀", count: 40) // 80 units
        let sms = TextModeSMS(text)
        for part in sms.parts.map(\.text) {
            #expect(part.utf16.count <= 70)
            #expect(UCS2Hex.decode(UCS2Hex.encode(part)) == part)
        }
        #expect(sms.parts.map { $0.text.drop(while: { $0 != " " }).dropFirst() }.joined() == text)
    }

    @Test func aTextWithoutSpacesIsCutHard() {
        let text = String(repeating: "x", count: 400)
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        #expect(sms.parts.allSatisfy { $0.text.count <= 160 })
    }

    @Test func tenOrMorePartsKeepTheLimit() {
        let text = String(repeating: "abc def ", count: 200) // 1600 characters
        let sms = TextModeSMS(text)
        #expect(sms.parts.count >= 10)
        #expect(sms.parts.allSatisfy { $0.text.count <= 160 })
        #expect(sms.parts.last?.text.hasPrefix("(\(sms.parts.count)/\(sms.parts.count)) ") == true)
    }
}

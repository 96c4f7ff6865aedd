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
        #expect(TextModeSMS("a [b]").charset == .ucs2)
        #expect(TextModeSMS("plain text").charset == .gsm)
        #expect(TextModeSMS("Łódź").charset == .ucs2)
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
        #expect(TextModeSMS(text).parts == [text])
        let ucs2 = String(repeating: "ł", count: 70)
        #expect(TextModeSMS(ucs2).parts == [ucs2])
    }

    @Test func longGSMTextsSplitIntoNumberedSMSOfAtMost160() {
        let text = String(repeating: "word ", count: 80) // 400 characters
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        for (index, part) in sms.parts.enumerated() {
            #expect(part.hasPrefix("(\(index + 1)/3) "))
            #expect(part.count <= 160)
            #expect(!part.dropFirst(6).hasPrefix(" ")) // split after a space, not inside a word
        }
        #expect(sms.parts.map { $0.dropFirst(6) }.joined() == text)
    }

    @Test func longUCS2TextsSplitIntoSMSOfAtMost70Units() {
        let text = String(repeating: "Łódź ", count: 30) // 150 units
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        for part in sms.parts { #expect(part.utf16.count <= 70) }
        #expect(sms.parts.map { $0.dropFirst(6) }.joined() == text)
    }

    @Test func surrogatePairsAreNeverCutInHalf() {
        let text = String(repeating: "😀", count: 40) // 80 units
        let sms = TextModeSMS(text)
        for part in sms.parts {
            #expect(part.utf16.count <= 70)
            #expect(UCS2Hex.decode(UCS2Hex.encode(part)) == part)
        }
        #expect(sms.parts.map { $0.drop(while: { $0 != " " }).dropFirst() }.joined() == text)
    }

    @Test func aTextWithoutSpacesIsCutHard() {
        let text = String(repeating: "x", count: 400)
        let sms = TextModeSMS(text)
        #expect(sms.parts.count == 3)
        #expect(sms.parts.allSatisfy { $0.count <= 160 })
    }

    @Test func tenOrMorePartsKeepTheLimit() {
        let text = String(repeating: "abc def ", count: 200) // 1600 characters
        let sms = TextModeSMS(text)
        #expect(sms.parts.count >= 10)
        #expect(sms.parts.allSatisfy { $0.count <= 160 })
        #expect(sms.parts.last?.hasPrefix("(\(sms.parts.count)/\(sms.parts.count)) ") == true)
    }
}

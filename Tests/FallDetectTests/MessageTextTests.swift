import Foundation
import Testing
@testable import FallDetect

@Suite struct MessageTextTests {
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")
    /// 2026-11-22 13:05:00 UTC.
    let time = Date(timeIntervalSince1970: 1_795_352_700)

    func context(position: Bool = true, address: String? = nil, test: Bool = false) -> MessageContext {
        let fix = GNSSFix(timestampNanoseconds: 0, mode: .threeD, latitude: 51.501009, longitude: -0.141588)
        return MessageContext(
            person: person, possessive: "her", device: "fall detector", position: position ? fix : nil,
            address: address, time: time, timeZone: TimeZone(identifier: "Europe/Paris")!, isTest: test)
    }

    @Test func alertFollowsTheTemplateExactly() {
        #expect(MessageText.text(.alert, context(address: "Buckingham Palace,")) ==
            "ALERT! Ada Lovelace has activated her fall detector alarm and may be in an emergency situation. "
            + "Last known location was Buckingham Palace, 51.50101, -0.14159 at 14:05 CET on 22 Nov. "
            + "https://www.openstreetmap.org/?mlat=51.50101&mlon=-0.14159#map=17/51.50101/-0.14159")
    }

    @Test func everyKindHasItsText() {
        let c = context()
        #expect(MessageText.text(.allClear, c) == "All clear: Ada Lovelace has cancelled the alarm and is safe. No action is needed.")
        #expect(MessageText.text(.locationUpdate, c).hasPrefix("Location update for Ada Lovelace: 51.50101, -0.14159 at 14:05 CET on 22 Nov. https://"))
        #expect(MessageText.text(.trackingStopped, c).hasPrefix("Location tracking for Ada Lovelace has stopped. Last known location was 51.50101, -0.14159"))
        #expect(MessageText.text(.keychainRepeat, c).hasPrefix("ALERT (repeated)! Ada Lovelace raised an alarm from her keychain"))
        #expect(MessageText.text(.duress, c).hasPrefix("DURESS! Ada Lovelace entered the duress code"))
        #expect(MessageText.text(.lowBattery, c, batteryPercent: 15) == "Ada Lovelace's keychain battery is low (15 %). Please help replace it.")
        #expect(MessageText.text(.sensorFault, c).hasPrefix("Ada Lovelace's "))
        #expect(MessageText.text(.sensorFault, c).contains("no working motion sensor since 14:05 CET on 22 Nov"))
        #expect(MessageText.text(.sensorFault, c).contains("not an emergency alert"))
    }

    /// GNSS lost indoors at 12:00 and the alert at 14:05: the location is told with its own time.
    @Test func aLastKnownLocationIsToldWithTheTimeItWasRecorded() {
        var c = context()
        c.positionTime = time.addingTimeInterval(-(2 * 3600 + 5 * 60))
        #expect(MessageText.text(.alert, c).contains("Last known location was 51.50101, -0.14159 at 12:00 CET on 22 Nov."))
        #expect(MessageText.text(.locationUpdate, c).contains("51.50101, -0.14159 at 12:00 CET on 22 Nov."))
        c.position = nil
        #expect(MessageText.text(.alert, c).hasSuffix("No location is known (at 14:05 CET on 22 Nov)."))
    }

    /// Five decimals claim a metre: a fix hundreds of metres off (2D, indoors) says so.
    @Test func aPoorFixSaysHowFarOffItMayBe() {
        var c = context()
        c.position?.horizontalAccuracy = 850
        #expect(MessageText.text(.alert, c).contains("Last known location was 51.50101, -0.14159 (within 850 m) at 14:05"))
        c.position?.horizontalAccuracy = 35
        #expect(MessageText.text(.alert, c).contains("Last known location was 51.50101, -0.14159 at 14:05"))
    }

    @Test func withoutAPositionTheTextSaysSo() {
        let text = MessageText.text(.alert, context(position: false))
        #expect(text.hasSuffix("No location is known (at 14:05 CET on 22 Nov)."))
        #expect(!text.contains("openstreetmap"))
    }

    @Test func testMessagesAreMarked() {
        #expect(MessageText.text(.alert, context(test: true)).hasPrefix("TEST - no action needed. ALERT!"))
    }

    @Test func theAlertFitsAnAffordableNumberOfSMS() {
        let encoding = SMSEncoding(MessageText.text(.alert, context()))
        #expect(encoding.alphabet == .gsm7)
        #expect(encoding.parts == 2)
    }
}

@Suite struct SMSEncodingTests {
    @Test func gsm7CountsSeptetsAndSplitsAt153() {
        #expect(SMSEncoding(String(repeating: "a", count: 160)) == SMSEncoding(String(repeating: "a", count: 160)))
        #expect(SMSEncoding(String(repeating: "a", count: 160)).parts == 1)
        #expect(SMSEncoding(String(repeating: "a", count: 161)).parts == 2)
        #expect(SMSEncoding(String(repeating: "a", count: 306)).parts == 2)
        #expect(SMSEncoding(String(repeating: "a", count: 307)).parts == 3)
    }

    @Test func extensionCharactersCostTwoSeptets() {
        let e = SMSEncoding("€[]")
        #expect(e.alphabet == .gsm7)
        #expect(e.units == 6)
        #expect(SMSEncoding(String(repeating: "€", count: 81)).parts == 2)
    }

    @Test func anyOtherCharacterSwitchesToUCS2() {
        let e = SMSEncoding("Zoë Łukasz")
        #expect(e.alphabet == .ucs2)
        #expect(e.units == 10)
        #expect(SMSEncoding(String(repeating: "ł", count: 70)).parts == 1)
        #expect(SMSEncoding(String(repeating: "ł", count: 71)).parts == 2)
        #expect(SMSEncoding(String(repeating: "ł", count: 134)).parts == 2)
        #expect(SMSEncoding("😀").units == 2, "UCS-2 counts UTF-16 units")
    }

    @Test func accentsInTheGSMAlphabetStayGSM() {
        #expect(SMSEncoding("José Müller à Zürich").alphabet == .gsm7)
    }
}

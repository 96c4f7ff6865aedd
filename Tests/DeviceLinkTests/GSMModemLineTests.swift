import Testing
@testable import DeviceLink

/// `ModemLine` parsing and `SMSErrorClass`, the two halves of reading a modem's replies.
@Suite struct GSMModemLineTests {
    @Test func finalResults() {
        #expect(ModemLine("OK") == .ok)
        #expect(ModemLine("ERROR") == .error)
        #expect(ModemLine("+CMS ERROR: 331") == .cmsError(code: 331, text: "331"))
        #expect(ModemLine("+CMS ERROR: SIM not inserted") == .cmsError(code: nil, text: "SIM not inserted"))
        #expect(ModemLine("+CME ERROR: 10") == .cmeError(code: 10, text: "10"))
    }

    @Test func informationLines() {
        #expect(ModemLine("+CMGS: 42") == .messageReference(42))
        #expect(ModemLine("+CMGS: 42,\"26/01/01,12:00:30+04\"") == .messageReference(42))
        #expect(ModemLine("+CSQ: 99,99") == .signal(rssi: 99, ber: 99))
        #expect(ModemLine("+CSQ: 18,0") == .signal(rssi: 18, ber: 0))
        #expect(ModemLine("+CREG: 0,5") == .registration(5))
        #expect(ModemLine("+CREG: 1") == .registration(1))
        #expect(ModemLine("+CREG: 2,1,\"1A2B\",\"00C3\"") == .registration(1))
    }

    @Test func statusReportsWithCommasInsideQuotes() {
        let line = "+CDS: 6,46,\"+33612345678\",145,\"26/01/01,12:00:30+04\",\"26/01/01,12:00:35+04\",0"
        #expect(ModemLine(line) == .statusReport(reference: 46, status: 0))
        #expect(ModemLine("+CDS: 6,7,,,\"26/01/01,12:00:30+04\",\"26/01/01,12:00:35+04\",70") == .statusReport(reference: 7, status: 70))
    }

    @Test func garbledLinesAreOther() {
        #expect(ModemLine("+CMGS: #?") == .other("+CMGS: #?"))
        #expect(ModemLine("+CDS: x") == .other("+CDS: x"))
        #expect(ModemLine("\u{FFFD}\u{FFFD}OK") == .other("\u{FFFD}\u{FFFD}OK"))
        #expect(ModemLine("AT+CSQ") == .other("AT+CSQ"))
    }

    @Test func cmsClasses() {
        for permanent in [1, 8, 10, 21, 30, 96, 144, 195] { #expect(SMSErrorClass.isPermanent(cms: permanent)) }
        for transient in [27, 38, 41, 42, 47, 192, 300, 302, 303, 304, 305, 310, 322, 330, 331, 332, 500, 512] { #expect(!SMSErrorClass.isPermanent(cms: transient)) }
    }

    @Test func statusReportClasses() {
        #expect(SMSErrorClass.report(0) == .delivered)
        #expect(SMSErrorClass.report(2) == .delivered)
        #expect(SMSErrorClass.report(0x20) == .stillTrying)
        #expect(SMSErrorClass.report(0x41) == .permanentError)
        #expect(SMSErrorClass.report(0x62) == .temporaryError)
        #expect(SMSErrorClass.report(0x80) == .temporaryError)
    }
}

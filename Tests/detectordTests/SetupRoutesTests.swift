import Testing
@testable import detectord

@Suite struct SetupRoutesTests {
    @Test func numbersInsideJournalLinesAreMasked() {
        #expect(SetupRoutes.maskingNumbers("msg-3-sms-+351913333333") == "msg-3-sms-+351••••••333")
        #expect(SetupRoutes.maskingNumbers("a +12 b +447700900123|x") == "a +12 b +447••••••123|x")
        #expect(SetupRoutes.maskingNumbers("no number") == "no number")
        #expect(SetupRoutes.maskingNumbers("+") == "+")
    }
}

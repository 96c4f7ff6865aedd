import Testing
@testable import FallDetect

@Suite struct ConstantTimeTests {
    @Test func equalOnlyForTheSameBytes() {
        #expect(ConstantTime.equal("$y$j9T$abc", "$y$j9T$abc"))
        #expect(!ConstantTime.equal("$y$j9T$abc", "$y$j9T$abd"), "the last byte differs")
        #expect(!ConstantTime.equal("abc", "abcd"), "a prefix is not equal")
        #expect(!ConstantTime.equal("", "a"))
        #expect(ConstantTime.equal("", ""))
        #expect(ConstantTime.equal("é", "e\u{301}") == false, "bytes, not canonical equivalence")
    }
}

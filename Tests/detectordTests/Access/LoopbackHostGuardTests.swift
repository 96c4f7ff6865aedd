import Testing
@testable import detectord

@Suite struct LoopbackHostGuardTests {
    @Test(arguments: ["localhost", "localhost:8180", "127.0.0.1", "127.0.0.1:8180", "127.1.2.3:80", "[::1]:8180", "LOCALHOST:1"])
    func loopbackNamesPass(_ authority: String) {
        #expect(LoopbackHostGuard.isLoopback(authority: authority))
    }

    @Test(arguments: ["evil.example", "evil.example:8180", "127.0.0.1.evil.example", "localhost.evil.example:8180", "192.168.1.20:8180",
                      "[::2]:8180", "127.0.0:8180", "127.0.0.300"])
    func otherNamesDoNot(_ authority: String) {
        #expect(!LoopbackHostGuard.isLoopback(authority: authority))
    }
}

import Testing
@testable import detectord

@Suite struct AccessGuardTests {
    @Test func anOriginMustNameTheHostTheRequestWentTo() {
        #expect(AccessGuard.sameOrigin("http://192.168.1.20:8180", host: "192.168.1.20:8180"))
        #expect(AccessGuard.sameOrigin("https://Pi.local", host: "pi.local"))
        #expect(AccessGuard.sameOrigin("http://[fe80::1]:8180", host: "[fe80::1]:8180"))
        #expect(!AccessGuard.sameOrigin("http://evil.example", host: "192.168.1.20:8180"))
        #expect(!AccessGuard.sameOrigin("http://192.168.1.20:9999", host: "192.168.1.20:8180"))
        #expect(!AccessGuard.sameOrigin("null", host: "192.168.1.20:8180"))
        #expect(!AccessGuard.sameOrigin("http://192.168.1.20:8180", host: nil))
    }

    @Test func theSessionCookieIsFoundAmongOthers() {
        #expect(AccessGuard.cookie("detectord_session", in: "a=1; detectord_session=xyz; b=2") == "xyz")
        #expect(AccessGuard.cookie("detectord_session", in: "detectord_sessionx=1") == nil)
        #expect(AccessGuard.cookie("detectord_session", in: nil) == nil)
    }
}

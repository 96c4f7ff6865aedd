import Testing
@testable import FallDetect

@Suite struct PINHasherTests {
    @Test func hashesAreSaltedYescryptAndVerify() throws {
        let a = try PINHasher.hash("2468")
        let b = try PINHasher.hash("2468")
        #expect(a.hasPrefix("$y$"))
        #expect(a != b, "a fresh salt each time")
        #expect(!a.contains("2468"))
        #expect(PINHasher.verify("2468", against: a))
        #expect(PINHasher.verify("2468", against: b))
        #expect(!PINHasher.verify("2469", against: a))
        #expect(!PINHasher.verify("2468", against: "garbage"))
    }

    @Test(arguments: ["", "123", "12a4", "1234567890123", "١٢٣٤"])
    func onlyFourToTwelveDigits(_ pin: String) {
        #expect(throws: FallDetectError.self) { try PINHasher.hash(pin) }
    }
}

@Suite struct PINLockTests {
    let s: Int64 = 1_000_000_000

    @Test func wrongTriesLockWithGrowingDelays() throws {
        let hash = try PINHasher.hash("1357")
        var lock = PINLock()
        for _ in 0..<2 { #expect(lock.check("0000", pinHash: hash, duressHash: nil, at: 0) == .verdict(.wrong)) }
        #expect(lock.lockedUntil == nil, "two free wrong tries")
        #expect(lock.check("0000", pinHash: hash, duressHash: nil, at: 0) == .verdict(.wrong))
        #expect(lock.check("1357", pinHash: hash, duressHash: nil, at: 10 * s) == .lockedOut(seconds: 20), "even the right PIN waits")
        #expect(lock.check("0000", pinHash: hash, duressHash: nil, at: 30 * s) == .verdict(.wrong))
        #expect(lock.check("0000", pinHash: hash, duressHash: nil, at: 31 * s) == .lockedOut(seconds: 59), "the delay doubled")
        #expect(lock.check("1357", pinHash: hash, duressHash: nil, at: 90 * s) == .verdict(.correct))
        #expect(lock.consecutiveFailures == 0)
    }

    @Test func lockoutIsCapped() throws {
        let hash = try PINHasher.hash("1357")
        var lock = PINLock()
        var t: Int64 = 0
        for _ in 0..<20 {
            _ = lock.check("0000", pinHash: hash, duressHash: nil, at: t)
            t = lock.lockedUntil ?? t
        }
        let before = t - 1
        if case .lockedOut(let seconds) = lock.check("0000", pinHash: hash, duressHash: nil, at: before) {
            #expect(seconds <= 3600)
        }
    }

    @Test func duressPINIsRecognised() throws {
        let pin = try PINHasher.hash("1357")
        let duress = try PINHasher.hash("7531")
        var lock = PINLock()
        #expect(lock.check("7531", pinHash: pin, duressHash: duress, at: 0) == .verdict(.duress))
        #expect(lock.check("1357", pinHash: pin, duressHash: duress, at: 0) == .verdict(.correct))
    }
}

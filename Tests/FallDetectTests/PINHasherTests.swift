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

    /// A hash cut short in copying, or of a method libxcrypt cannot compute, matches no PIN.
    @Test func onlyAHashSomePINCanMatchIsUsable() throws {
        let hash = try PINHasher.hash("2468")
        #expect(PINHasher.isUsable(hash))
        let setting = String(hash[..<hash.lastIndex(of: "$")!])
        #expect(!PINHasher.isUsable(setting), "the salt without the hash: \(setting)")
        #expect(!PINHasher.isUsable(String(hash.dropLast(4))), "the hash missing its last characters")
        #expect(!PINHasher.isUsable("$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"), "argon2 is not in libxcrypt")
        #expect(!PINHasher.isUsable("garbage"))
        // Any method libxcrypt computes is usable: SHA-512 crypt of "2468" (`mkpasswd -m sha-512`).
        let sha512 = "$6$siagG6QhZ01ltt73$PkqGMFifxNP8a4555IJh8YK.mnqbT8aUnZFdUlYrETVVsyMUPpBfR4JzWlo.gJd0K7/p/GhrhnRdjyieVHyJ9/"
        #expect(PINHasher.isUsable(sha512))
        #expect(PINHasher.verify("2468", against: sha512))
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

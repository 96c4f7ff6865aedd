/// Decides whether an entered PIN may even be checked, and what a check means: wrong tries lock
/// the keypad for growing delays, so guessing four digits takes days rather than minutes.
public struct PINLock: Sendable, Equatable, Codable {
    /// Wrong tries allowed before the first lockout.
    public var freeTries = 3
    /// The first lockout, seconds; each further wrong try doubles it up to `maximumLockout`.
    public var firstLockout: Double = 30
    public var maximumLockout: Double = 3600

    public private(set) var consecutiveFailures = 0
    public private(set) var lockedUntil: Int64?

    public init() {}

    public enum Outcome: Sendable, Equatable {
        case verdict(PINVerdict)
        /// Not checked: try again after this many seconds.
        case lockedOut(seconds: Double)
    }

    /// Moves a lockout's end by a step of the wall clock: it lasts what it had left.
    public mutating func shiftLockout(by step: Int64) {
        lockedUntil = lockedUntil.map { $0 &+ step }
    }

    /// Checks `pin` against the PIN hash and the optional duress hash at wall time `now` (ns).
    public mutating func check(_ pin: String, pinHash: String, duressHash: String?, at now: Int64) -> Outcome {
        if let until = lockedUntil, now < until {
            return .lockedOut(seconds: Double(until - now) / 1e9)
        }
        // Both hashes every time: a PIN that matched at the first would answer in half the time
        // of one checked against both, and the duress PIN would show in the answer's delay.
        let isPIN = PINHasher.verify(pin, against: pinHash)
        let isDuress = duressHash.map { PINHasher.verify(pin, against: $0) } ?? false
        if isPIN {
            consecutiveFailures = 0
            lockedUntil = nil
            return .verdict(.correct)
        }
        if isDuress {
            // Indistinguishable from a correct PIN to anyone watching, lockout state included.
            consecutiveFailures = 0
            lockedUntil = nil
            return .verdict(.duress)
        }
        consecutiveFailures += 1
        if consecutiveFailures >= freeTries {
            let doublings = Double(consecutiveFailures - freeTries)
            let delay = min(maximumLockout, firstLockout * pow2(doublings))
            lockedUntil = now + Int64(delay * 1e9)
        }
        return .verdict(.wrong)
    }

    private func pow2(_ n: Double) -> Double {
        var v = 1.0
        var i = 0.0
        while i < n && v < 1e9 {
            v *= 2
            i += 1
        }
        return v
    }
}

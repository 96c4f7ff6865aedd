import FallDetect

/// Compares the system clock with the receiver's UTC. Texts and payloads are stamped with the
/// system clock, which on a Pi without a real-time clock or network time (only SMS gets through)
/// can be minutes or months off while the receiver knows the time to the second; a contact told
/// "fell at 03:12" a day late would not know what to believe. The daemon does not set the clock
/// (chrony does that from gpsd, docs/daemon.md); it says when the two disagree, and when they
/// agree again.
struct GNSSClockCheck {
    /// Seconds of disagreement that are news: far beyond a fix's delay through gpsd (well under
    /// a second) and a clock drifting between network syncs.
    static let tolerance = 60.0

    /// System minus receiver, seconds, while beyond the tolerance; nil while they agree.
    private(set) var offset: Double?

    enum News: Equatable {
        /// The system clock is `seconds` ahead of the receiver's (negative: behind).
        case off(seconds: Double)
        case agrees
    }

    /// A fix's UTC against the system's at its arrival: news when the two start or stop
    /// disagreeing, or when the disagreement moves by more than the tolerance (a clock set by
    /// hand, wrongly again).
    mutating func check(systemUTC: Int64, fixUTC: Int64) -> News? {
        let seconds = Double(systemUTC - fixUTC) / 1e9
        if abs(seconds) <= Self.tolerance {
            guard offset != nil else { return nil }
            offset = nil
            return .agrees
        }
        if let told = offset, abs(told - seconds) <= Self.tolerance { return nil }
        offset = seconds
        return .off(seconds: seconds)
    }
}

import Foundation

/// Exponential backoff with full jitter: attempt n waits a uniformly random time in
/// [minimum, min(maximum, base · 2^(n-1))]. Full jitter spreads retries from many devices after an
/// outage instead of having them all hit the receiver on the same beat; the floor keeps a retry
/// from following a failure immediately. Pure: the randomness comes from the caller.
public struct RetryPolicy: Sendable, Equatable, Codable {
    /// Ceiling of the first retry's delay, seconds.
    public var base: Double
    /// The ceiling never grows past this, seconds.
    public var maximum: Double
    /// No delay is shorter than this, seconds.
    public var minimum: Double

    public init(base: Double = 30, maximum: Double = 300, minimum: Double = 1) {
        self.base = base
        self.maximum = max(maximum, 0)
        self.minimum = min(max(minimum, 0), self.maximum)
    }

    /// The largest delay after failed attempt `attempt` (1-based).
    public func ceiling(afterAttempt attempt: Int) -> Double {
        // Clamped so a long outage's attempt count cannot overflow the power.
        let exponent = Double(min(max(attempt, 1) - 1, 60))
        return max(minimum, min(maximum, base * pow(2, exponent)))
    }

    /// A delay drawn with full jitter after failed attempt `attempt` (1-based).
    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Double {
        let top = ceiling(afterAttempt: attempt)
        guard top > minimum else { return minimum }
        return Double.random(in: minimum...top, using: &generator)
    }
}

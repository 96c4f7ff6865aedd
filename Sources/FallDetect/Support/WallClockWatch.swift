/// Tells a wall clock that was set from one that ran: between two readings the wall clock should
/// advance as the monotonic clock does; when it differs by more than `threshold`, someone (NTP
/// on a Pi without a battery-backed clock, a person) stepped it, by the difference. NTP's own
/// slewing moves it by milliseconds and is not a step.
public struct WallClockWatch: Sendable {
    public var threshold: Int64
    private var wall: Int64?
    private var monotonic: Int64 = 0

    public init(thresholdSeconds: Double = 2) {
        threshold = Int64(thresholdSeconds * 1e9)
    }

    /// The step since the previous reading (positive: the clock jumped forward), or nil.
    public mutating func step(wall now: Int64, monotonic tick: Int64) -> Int64? {
        defer { (wall, monotonic) = (now, tick) }
        guard let wall else { return nil }
        let step = (now &- wall) &- (tick &- monotonic)
        return step.magnitude > threshold.magnitude ? step : nil
    }
}

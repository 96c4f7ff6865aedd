import FallDetect

/// The monotonic clock sped up `speed` times, for a simulated chip in a demonstration: the chip,
/// the streamer and so the samples' timestamps all run on it, so the detector sees motion at its
/// true pace in less wall time.
public final class ScaledIMUClock: IMUClock {
    public let speed: Double
    private let origin: Int64
    private let system = SystemIMUClock()

    public init(speed: Double) {
        self.speed = speed
        origin = MonotonicTime.nowNanoseconds()
    }

    public func nowNanoseconds() -> Int64 {
        origin + Int64(Double(MonotonicTime.nowNanoseconds() - origin) * speed)
    }

    public func sleep(nanoseconds: Int64) { system.sleep(nanoseconds: Int64(Double(nanoseconds) / speed)) }
}

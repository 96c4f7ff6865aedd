#if canImport(Glibc)
import Glibc
#endif
import FallDetect

/// The time a driver path runs on: the monotonic clock on a device, a clock the simulator
/// shares in tests (a driver's wait then advances the simulated chip, deterministically).
public protocol IMUClock: AnyObject, Sendable {
    func nowNanoseconds() -> Int64
    func sleep(nanoseconds: Int64)
}

/// `MonotonicTime` and nanosleep, EINTR resumed.
public final class SystemIMUClock: IMUClock {
    public init() {}

    public func nowNanoseconds() -> Int64 { MonotonicTime.nowNanoseconds() }

    public func sleep(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

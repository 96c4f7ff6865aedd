#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock that stamps live samples and fixes, so they line up with each other and
/// never jump when the wall clock is set (a Pi without a battery-backed clock sets it late).
public enum MonotonicTime {
    public static func nowNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

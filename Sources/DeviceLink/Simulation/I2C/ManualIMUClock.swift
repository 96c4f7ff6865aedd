import Synchronization

/// A clock that moves only when someone sleeps on it or advances it: tests run a driver, its
/// simulator and the streamer's waits deterministically and at once.
public final class ManualIMUClock: IMUClock {
    private let now: Atomic<Int64>

    public init(startNanoseconds: Int64 = 1_000_000_000) {
        now = Atomic(startNanoseconds)
    }

    public func nowNanoseconds() -> Int64 { now.load(ordering: .acquiring) }

    public func sleep(nanoseconds: Int64) { advance(nanoseconds: max(0, nanoseconds)) }

    public func advance(nanoseconds: Int64) { now.add(nanoseconds, ordering: .acquiringAndReleasing) }
}

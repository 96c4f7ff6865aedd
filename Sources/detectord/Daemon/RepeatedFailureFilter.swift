import Synchronization

/// Tells a failure that keeps coming back once a minute, not at each try: a store that takes no
/// writes (a full disk) fails the workflow's tick every second and each outbox lane every five,
/// and the log would drown what else happens. A different failure, or the same one a minute
/// later, is told again, so none goes untold.
final class RepeatedFailureFilter: Sendable {
    private let last = Mutex<(message: String, toldAt: Int64)?>(nil)
    private let interval: Int64

    init(intervalSeconds: Double = 60) { interval = Int64(intervalSeconds * 1e9) }

    /// Whether `message`, failing at `now` (UTC nanoseconds), is to be told. A `now` up to a
    /// second before the last telling is the same moment (callers on several tasks read the clock
    /// before they fail, and may be told in the other order); further back, the clock was set
    /// back, which is no reason to stay silent.
    func shouldTell(_ message: String, at now: Int64) -> Bool {
        last.withLock { last in
            if let told = last, told.message == message, now > told.toldAt - 1_000_000_000, now - told.toldAt < interval { return false }
            last = (message, now)
            return true
        }
    }

    /// It worked: the next failure is told at once.
    func cleared() { last.withLock { $0 = nil } }
}

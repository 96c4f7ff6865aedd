import Synchronization

/// The fixes of a replayed recording as a GNSS source, so the daemon's position and the crash
/// detector's speed gate work in a demo exactly as with gpsd. The replay hands each fix over at
/// its place in time.
public final class RecordedGNSSSource: GNSSSource {
    public let fixes: AsyncStream<GNSSFix>
    private let continuation: AsyncStream<GNSSFix>.Continuation
    private let state = Mutex(GNSSHealth())

    public init() {
        (fixes, continuation) = AsyncStream.makeStream(of: GNSSFix.self, bufferingPolicy: .bufferingNewest(256))
    }

    public var health: GNSSHealth { state.withLock { $0 } }

    public func deliver(_ fix: GNSSFix) {
        state.withLock { $0.update(fix) }
        continuation.yield(fix)
    }

    /// No more fixes will come.
    public func finish() { continuation.finish() }
}

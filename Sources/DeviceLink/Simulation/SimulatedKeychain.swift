import FallDetect
import Synchronization

/// A keychain whose presses, link changes and battery readings a test or a demo sends by hand,
/// and which records what it was asked to beep: the daemon's side of the keychain seam runs
/// against it exactly as against a tag.
public final class SimulatedKeychain: KeychainLink {
    public let summary: String
    public let events: AsyncStream<KeychainEvent>
    private let continuation: AsyncStream<KeychainEvent>.Continuation
    private let beeps = Mutex<[Bool]>([])

    public init(summary: String = "simulated keychain") {
        self.summary = summary
        (events, continuation) = AsyncStream.makeStream(of: KeychainEvent.self, bufferingPolicy: .unbounded)
    }

    /// Sends an event as if the tag had reported it.
    public func send(_ event: KeychainEvent) { continuation.yield(event) }

    /// Every beeper change asked for, oldest first.
    public var beepRequests: [Bool] { beeps.withLock { $0 } }

    public func setBeeping(_ on: Bool) async { beeps.withLock { $0.append(on) } }

    /// Ends `events`, as a real link does once stopped.
    public func stop() { continuation.finish() }
}

import CGPS
import FallDetect
import Foundation
import Synchronization

/// A gpsd client that keeps going whatever gpsd does: not running at start, restarted, killed
/// mid-stream, or serving a receiver that fell silent. It reconnects with exponential backoff,
/// reports its state, and hands fixes on without ever blocking whoever reads them.
///
/// libgps calls block, so they run on a thread of their own; readers see snapshots.
public final class GPSDClient: GNSSSource {
    public struct Configuration: Sendable {
        public var host: String
        public var port: String
        /// First wait before reconnecting, seconds; doubled after each failure up to the maximum.
        public var initialRetryDelay: Double = 0.5
        public var maximumRetryDelay: Double = 30
        /// No report for this long while connected, seconds: the receiver is reported silent.
        public var silenceTimeout: Double = 5
        /// No report for this long, seconds: the connection is presumed wedged and reopened.
        public var reconnectAfterSilence: Double = 60
        /// Longest `stop()` waits for the thread, seconds. Opening a connection (the name lookup,
        /// TCP's connect to a host that does not answer) cannot be interrupted and may block for
        /// minutes; the thread then ends by itself when it returns.
        public var stopWait: Double = 1
        public var thresholds = GNSSHealth.Thresholds()

        public init(host: String = "127.0.0.1", port: String = "2947") {
            self.host = host
            self.port = port
        }
    }

    private struct Shared {
        var state: GPSDClientState = .stopped
        var health: GNSSHealth
        var connections = 0
        var reports = 0
        var stopRequested = false
        var running = false
    }

    public let configuration: Configuration
    public let fixes: AsyncStream<GNSSFix>
    private let continuation: AsyncStream<GNSSFix>.Continuation
    private let shared: Mutex<Shared>

    public init(configuration: Configuration) {
        self.configuration = configuration
        (fixes, continuation) = AsyncStream.makeStream(of: GNSSFix.self, bufferingPolicy: .bufferingNewest(256))
        shared = Mutex(Shared(health: GNSSHealth(thresholds: configuration.thresholds)))
    }

    deinit {
        stop()
        continuation.finish()
    }

    public var state: GPSDClientState { shared.withLock { $0.state } }
    public var health: GNSSHealth { shared.withLock { $0.health } }
    /// Successful connections so far (more than one means it reconnected).
    public var connectionCount: Int { shared.withLock { $0.connections } }
    /// Reports (TPV and SKY) read so far.
    public var reportCount: Int { shared.withLock { $0.reports } }

    /// Starts the client thread; does nothing if it is already running. A thread still ending
    /// after a `stop()` that stopped waiting for it is told to go on instead.
    public func start() {
        let thread = Thread { [self] in serve() }
        thread.name = "gpsd-client"
        let started = shared.withLock { s -> Bool in
            s.stopRequested = false
            guard !s.running else { return false }
            s.state = .connecting
            s.running = true
            return true
        }
        if started { thread.start() }
    }

    /// Stops the thread and waits for it: about a quarter of a second at most, unless it is
    /// opening a connection, which `Configuration.stopWait` bounds (the thread holds the client
    /// until it ends by itself).
    public func stop() {
        let running = shared.withLock { s -> Bool in
            s.stopRequested = true
            return s.running
        }
        guard running else { return }
        let deadline = MonotonicTime.nowNanoseconds() + Int64(configuration.stopWait * 1e9)
        while shared.withLock({ $0.running }), MonotonicTime.nowNanoseconds() < deadline {
            usleep(5_000)
        }
    }

    /// The thread's body: ends only when a stop is asked for and no start came after it.
    private func serve() {
        while true {
            runLoop()
            let ended = shared.withLock { s -> Bool in
                guard s.stopRequested else { return false }
                s.running = false
                s.state = .stopped
                return true
            }
            if ended { return }
        }
    }

    private var stopRequested: Bool { shared.withLock { $0.stopRequested } }

    private func set(_ state: GPSDClientState) {
        shared.withLock { $0.state = state }
    }

    private func runLoop() {
        var delay = configuration.initialRetryDelay
        while !stopRequested {
            set(.connecting)
            let reason: String
            do {
                let session = try GPSDConnection(host: configuration.host, port: configuration.port)
                // A stop that came while the connection opened (it may take minutes).
                if stopRequested { break }
                try session.watch()
                shared.withLock {
                    $0.connections += 1
                    $0.state = .connected
                }
                reason = stream(session, resetDelay: { delay = configuration.initialRetryDelay })
            } catch {
                reason = error.description
            }
            if stopRequested { break }
            set(.disconnected(reason: reason, retryIn: delay))
            sleep(seconds: delay)
            delay = min(delay * 2, configuration.maximumRetryDelay)
        }
        set(.stopped)
    }

    /// Reads reports until the connection ends or a stop is asked for; returns why it ended.
    private func stream(_ session: GPSDConnection, resetDelay: () -> Void) -> String {
        var lastReport = MonotonicTime.nowNanoseconds()
        var satellites: Int?
        while !stopRequested {
            if session.waitForInput(timeoutMicroseconds: 250_000) {
                switch session.read() {
                case .nothing:
                    // Part of a line and no more yet: libgps's wait answers at once while it holds
                    // one, so a gpsd stuck mid-line would keep this loop busy for ever.
                    session.waitForSocket(timeoutMicroseconds: 250_000)
                case .closed(let errno):
                    return errno == 0 ? "gpsd closed the connection" : String(cString: strerror(errno))
                case .report(nil, nil):
                    // VERSION, DEVICES, WATCH: gpsd's own answers at each connection, not the
                    // receiver's. Taken for reports, a gpsd whose receiver is unplugged was
                    // "connected" again at every reconnection and the backoff never grew.
                    break
                case .report(let raw, let satellitesUsed):
                    let now = MonotonicTime.nowNanoseconds()
                    lastReport = now
                    resetDelay()
                    if let satellitesUsed { satellites = satellitesUsed }
                    var fix: GNSSFix?
                    if let raw { fix = GNSSFix(raw, receivedAt: now, satellitesUsed: satellites) }
                    shared.withLock {
                        $0.reports += 1
                        $0.state = .connected
                        if let fix { $0.health.update(fix) }
                    }
                    if let fix { continuation.yield(fix) }
                }
            }
            // Every pass, so that bytes that never make a report count as silence too.
            let silence = Double(MonotonicTime.nowNanoseconds() - lastReport) / 1e9
            if silence > configuration.reconnectAfterSilence {
                return "no report for \(Int(silence)) s"
            }
            if silence > configuration.silenceTimeout { set(.receiverSilent(seconds: silence)) }
        }
        return "stopped"
    }

    /// Sleeps in short slices so `stop()` is answered promptly.
    private func sleep(seconds: Double) {
        let end = MonotonicTime.nowNanoseconds() + Int64(seconds * 1e9)
        while !stopRequested, MonotonicTime.nowNanoseconds() < end {
            usleep(50_000)
        }
    }
}

extension GPSDClient {
    /// The libgps API version this binary was built against.
    public static var apiVersion: (major: Int, minor: Int) { GPSDConnection.apiVersion }
}

@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

/// The far end of a socket pair, driven by hand: what a test sends arrives at the bearer as one
/// frame, what the bearer sends is read back frame by frame.
final class RawATTPeer: @unchecked Sendable {
    let socket: ATTSocket

    init(_ socket: ATTSocket) { self.socket = socket }

    func send(_ frame: [UInt8]) { _ = try? socket.send(frame) }
    func send(_ pdu: ATTPDU) { send(pdu.encoded()) }

    /// The next frame the bearer sent, waiting up to `seconds`. It sleeps between looks rather
    /// than blocking in poll(): a blocked test would hold one of the few pool threads the
    /// bearer's callers need.
    func next(within seconds: Double = 5) async -> [UInt8]? {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 1024)
        while clock.now < deadline {
            if let received = try? socket.receive(into: &buffer) { return Array(buffer[0..<received.count]) }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    func nextPDU(within seconds: Double = 5) async -> ATTPDU? { await next(within: seconds).flatMap { try? ATTPDU.decode($0) } }
}

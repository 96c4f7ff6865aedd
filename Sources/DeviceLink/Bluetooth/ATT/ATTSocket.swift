#if canImport(Glibc)
import Glibc
#endif

/// A connected SOCK_SEQPACKET socket carrying one ATT PDU per frame: an L2CAP LE socket on fixed
/// channel 4 on a device, or one end of a Unix socket pair in tests and in the simulated keychain.
/// Both keep frame boundaries, so the bearer's code is the same on either. Non-blocking; the
/// bearer's thread waits in poll().
public final class ATTSocket: @unchecked Sendable {
    // @unchecked: the descriptor is only used by the bearer's one owner thread after hand-over.
    public let descriptor: Int32
    private var isClosed = false

    /// Takes ownership of a connected descriptor.
    public init(adopting descriptor: Int32) throws(ATTError) {
        self.descriptor = descriptor
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            isClosed = true
            throw .system(errno: code, operation: "fcntl(O_NONBLOCK)")
        }
    }

    deinit { close() }

    /// Two connected ends (AF_UNIX, SOCK_SEQPACKET).
    public static func pair() throws(ATTError) -> (ATTSocket, ATTSocket) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .system(errno: errno, operation: "socketpair(AF_UNIX, SOCK_SEQPACKET)")
        }
        let first: ATTSocket
        do { first = try ATTSocket(adopting: fds[0]) } catch {
            Glibc.close(fds[1])
            throw error
        }
        return (first, try ATTSocket(adopting: fds[1]))
    }

    /// Sends one frame; false when the socket cannot take it now (try again on POLLOUT).
    public func send(_ frame: [UInt8]) throws(ATTError) -> Bool {
        let sent = frame.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent >= 0 { return true }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return false }
        if Self.linkEnded(errno: code) { throw .disconnected(errno: code) }
        throw .system(errno: code, operation: "send")
    }

    /// Receives one frame into `buffer`: its length, nil when nothing is waiting, or the frame's
    /// true length when it was larger than the buffer (the caller rejects it).
    public func receive(into buffer: inout [UInt8]) throws(ATTError) -> (count: Int, truncated: Bool)? {
        let capacity = buffer.count
        let received = buffer.withUnsafeMutableBytes {
            recv(descriptor, $0.baseAddress, capacity, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
        }
        if received >= 0 { return (min(received, capacity), received > capacity) }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return nil }
        if Self.linkEnded(errno: code) { throw .disconnected(errno: code) }
        throw .system(errno: code, operation: "recv")
    }

    /// Whether a send or receive error means the link is gone. The kernel hands a dropped link's
    /// reason over as an errno made from the Bluetooth disconnect code (`bt_to_errno`): not only
    /// ECONNRESET and ETIMEDOUT but EIO, EHOSTDOWN, EPROTO, ECONNREFUSED, and ENOSYS for the rest
    /// (an LL response timeout, common with cheap tags). Taken for anything else, the frames still
    /// queued behind it, a press sent just before the drop among them, were thrown away. Only
    /// errors of the call itself (a descriptor closed or not a socket) are not the link's.
    static func linkEnded(errno code: Int32) -> Bool {
        ![EBADF, ENOTSOCK, EFAULT, EINVAL, ENOMEM, ENOBUFS].contains(code)
    }

    /// The socket's pending error (why the link dropped), cleared by reading it.
    public func pendingError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }
}

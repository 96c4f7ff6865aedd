import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking pipe another thread writes to so a thread waiting in poll() wakes up.
final class WakeDescriptor: Sendable {
    let readable: Int32
    let writable: Int32
    /// Set by `close()`. A signal can come after it (a caller closing a bearer that already
    /// ended), and must not write to a descriptor number another thread may have opened since.
    private let closed = Mutex(false)

    init() throws(ATTError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(errno: errno, operation: "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readable = fds[0]
        writable = fds[1]
    }

    /// A full pipe already means "wake up", so a failed write needs nothing more.
    func signal() {
        closed.withLock { closed in
            guard !closed else { return }
            var one: UInt8 = 1
            _ = write(writable, &one, 1)
        }
    }

    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readable, &scratch, scratch.count) > 0 {}
    }

    /// Closes both ends once; later calls and signals do nothing.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            Glibc.close(readable)
            Glibc.close(writable)
        }
    }
}

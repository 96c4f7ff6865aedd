#if canImport(Glibc)
import Glibc
#endif
import FallDetect

/// A serial line in raw mode (termios): no echo, no line editing, no CR/LF translation, 8N1, so
/// the bytes a modem sends are the bytes we read. Non-blocking, with `poll` giving every read and
/// write a deadline: a modem that stops answering must never hang the alert path.
///
/// Held exclusively (`flock`) while open. Not thread-safe: one owner at a time (the modem channel
/// keeps it behind a lock).
public final class SerialPort {
    public let path: String
    private var fd: Int32
    /// Bytes read but not yet returned as a line.
    private var buffer: [UInt8] = []
    /// The longest line returned whole. A modem's longest reply (a PDU, a UCS-2 text in hex) is a
    /// few hundred bytes; noise that never ends a line comes back in pieces of this size instead
    /// of growing the buffer, and of rescanning it, without end.
    public static let maximumLineLength = 4096

    /// Opens `path` (a tty such as /dev/ttyUSB2, or a pseudo-terminal) at `baudRate`.
    public init(path: String, baudRate: Int = 115_200) throws(FallDetectError) {
        guard let speed = Self.speeds[baudRate] else {
            throw FallDetectError(.invalidArgument, "unsupported baud rate \(baudRate)", path: path, field: "baud")
        }
        // O_NOCTTY: a modem must not become our controlling terminal (its hang-up would kill us).
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .io("cannot open the serial port", path: path, errno: errno) }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .io("not a terminal device", path: path, errno: code)
        }
        // Two programs talking AT on one port read each other's replies: a second detectord (a
        // `drill` given the real modem while the daemon runs) or picocom, which lock the same way,
        // are refused here, before either writes a byte. ModemManager does not lock; the example
        // configuration says how to keep it off the modem.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(fd)
            if code == EWOULDBLOCK {
                throw .io("the serial port is in use: another program holds its lock (another detectord, picocom)", path: path, errno: code)
            }
            throw .io("cannot lock the serial port", path: path, errno: code)
        }
        cfmakeraw(&tio)
        // CLOCAL: ignore modem-control lines, which many USB modems do not drive; CREAD: receive.
        tio.c_cflag |= tcflag_t(CLOCAL | CREAD)
        tio.c_cflag &= ~tcflag_t(CRTSCTS)
        // VMIN = VTIME = 0: read returns what is there; poll does the waiting.
        withUnsafeMutableBytes(of: &tio.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard cfsetispeed(&tio, speed) == 0, cfsetospeed(&tio, speed) == 0, tcsetattr(fd, TCSANOW, &tio) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .io("cannot set raw mode at \(baudRate) baud", path: path, errno: code)
        }
        // Whatever sat in the queues belongs to a previous conversation.
        tcflush(fd, TCIOFLUSH)
        self.fd = fd
        self.path = path
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        buffer.removeAll()
    }

    /// Writes every byte or fails; `timeout` bounds the wait for a full output queue.
    public func write(_ bytes: [UInt8], timeout: Double) throws(FallDetectError) {
        var offset = 0
        let deadline = Self.now() + timeout
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
                continue
            }
            let code = errno
            guard n < 0, code == EAGAIN || code == EINTR else { throw .io("write failed", path: path, errno: code) }
            guard try wait(for: Int16(POLLOUT), until: deadline) else {
                throw FallDetectError(.io, "write timed out after \(timeout) s", path: path)
            }
        }
    }

    public func write(_ text: String, timeout: Double) throws(FallDetectError) {
        try write(Array(text.utf8), timeout: timeout)
    }

    /// The next line without its CR/LF, skipping empty ones; nil when none is complete by `timeout`.
    /// Bytes that are not UTF-8 come back as U+FFFD rather than failing: line noise is not an error.
    public func readLine(timeout: Double) throws(FallDetectError) -> String? {
        let deadline = Self.now() + timeout
        while true {
            while let end = buffer.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }) {
                let line = buffer[..<end]
                buffer.removeSubrange(...end)
                if !line.isEmpty { return String(decoding: line, as: UTF8.self) }
            }
            if let piece = takeOverlongPiece() { return piece }
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// What `readPrompt` found first.
    public enum PromptRead: Equatable, Sendable {
        case prompt
        /// A complete line came before any prompt (an error reply, a status report, noise).
        case line(String)
        case timeout
    }

    /// Waits for `prefix` at the start of unread input (after line ends), as for the "> " prompt,
    /// which has no line end. A complete line that comes first is returned instead, so the caller
    /// can see an error reply or skip noise and call again.
    public func readPrompt(_ prefix: String, timeout: Double) throws(FallDetectError) -> PromptRead {
        let wanted = Array(prefix.utf8)
        let deadline = Self.now() + timeout
        while true {
            while let first = buffer.first, first == 0x0D || first == 0x0A { buffer.removeFirst() }
            if buffer.starts(with: wanted) {
                buffer.removeFirst(wanted.count)
                return .prompt
            }
            if let end = buffer.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return .line(line)
            }
            if let piece = takeOverlongPiece() { return .line(piece) }
            guard try fill(until: deadline) else { return .timeout }
        }
    }

    /// The first `maximumLineLength` bytes, when that many came without a line end.
    private func takeOverlongPiece() -> String? {
        guard buffer.count >= Self.maximumLineLength else { return nil }
        defer { buffer.removeFirst(Self.maximumLineLength) }
        return String(decoding: buffer[..<Self.maximumLineLength], as: UTF8.self)
    }

    /// Throws away unread input, in the kernel and here.
    public func discardInput() {
        tcflush(fd, TCIFLUSH)
        buffer.removeAll()
    }

    /// Reads what is available into the buffer; false when the deadline passed first.
    private func fill(until deadline: Double) throws(FallDetectError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 512)
        var readable = false
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[..<n]
                return true
            }
            let code = errno
            if n == 0 || code == EAGAIN || code == EINTR {
                // With VMIN 0, an empty read means "nothing yet"; right after poll said readable,
                // it means the device went away (a USB modem unplugged), and looping would spin.
                if n == 0, readable { throw FallDetectError(.io, "the serial line hung up", path: path, errno: EIO) }
                guard try wait(for: Int16(POLLIN), until: deadline) else { return false }
                readable = true
                continue
            }
            throw .io("read failed", path: path, errno: code)
        }
    }

    private func wait(for events: Int16, until deadline: Double) throws(FallDetectError) -> Bool {
        while true {
            let left = deadline - Self.now()
            if left <= 0 { return false }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let r = poll(&pfd, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if r > 0 {
                // A hung-up or failed line gives POLLHUP/POLLERR; the next read or write reports it.
                if pfd.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, pfd.revents & events == 0 {
                    throw FallDetectError(.io, "the serial line hung up or failed", path: path, errno: EIO)
                }
                return true
            }
            if r < 0, errno != EINTR { throw .io("poll failed", path: path, errno: errno) }
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static let speeds: [Int: speed_t] = [
        9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600),
    ]
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process run by `/bin/sh -c COMMAND` with its standard input and output ours, read as
/// lines. Its standard error is ours (the child's own messages reach the user as they are).
///
/// One thread, no deadlock: every wait is a `poll` on both ends, so while we have bytes for the
/// child we also take whatever it writes, and neither side can fill a buffer the other is not
/// emptying. Every wait has a deadline: `timeout` seconds without a byte moving either way is a
/// hung child, killed with its whole process group. Its input is a socket, not a pipe, so that
/// writing to a child that died gives an error here (send's MSG_NOSIGNAL), not a SIGPIPE that
/// would end the bench.
final class ExternalProcess {
    let command: String
    let timeout: Double
    let pid: pid_t
    /// Our end of the child's standard input (a socket), nonblocking; -1 once shut.
    private var input: Int32
    /// The read end of the child's standard output, nonblocking; -1 after its end.
    private var output: Int32
    private var pending: [UInt8] = []
    private var sent = 0
    private var partial: [UInt8] = []
    private var lines: [[UInt8]] = []
    private var nextLine = 0
    /// Lines of output taken so far: the 1-based number of the last one `readLine` returned.
    private(set) var lineNumber = 0
    private var status: Int32?
    /// The last line's number for an error, nil before any line.
    private var lastLine: Int? { lineNumber > 0 ? lineNumber : nil }

    /// Pending bytes beyond which `send` writes at once rather than buffering.
    static let flushBytes = 1 << 16

    init(command: String, timeout: Double) throws(FallDetectError) {
        self.command = command
        self.timeout = timeout
        var socketEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &socketEnds) == 0 else {
            throw FallDetectError.io("cannot make the child's input", path: command, errno: errno)
        }
        var pipeEnds: [Int32] = [-1, -1]
        // Close-on-exec at once, so no other child inherits (and holds open) these ends.
        guard pipe(&pipeEnds) == 0, fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            let e = errno
            close(socketEnds[0])
            close(socketEnds[1])
            throw FallDetectError.io("cannot make the child's output", path: command, errno: e)
        }
        defer {
            // The child's ends live on in the child only.
            close(socketEnds[1])
            close(pipeEnds[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, socketEnds[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a timeout kills the shell and whatever it started.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(socketEnds[0])
            close(pipeEnds[0])
            throw FallDetectError(.externalDetector, "cannot start: \(String(cString: strerror(spawned)))", path: command, errno: spawned)
        }
        pid = child
        input = socketEnds[0]
        output = pipeEnds[0]
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if status == nil { kill(-pid, SIGKILL) }
        reap(block: true)
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
    }

    /// Queues `bytes` for the child, writing once enough has gathered.
    func send(_ bytes: some Sequence<UInt8>) throws(FallDetectError) {
        pending.append(contentsOf: bytes)
        if pending.count - sent >= Self.flushBytes { try pump(untilWritten: true) }
    }

    /// Writes everything queued.
    func flush() throws(FallDetectError) {
        try pump(untilWritten: true)
    }

    /// The next line of the child's output, without its newline; writes what is queued meanwhile.
    func readLine() throws(FallDetectError) -> [UInt8] {
        while nextLine == lines.count {
            guard output >= 0 else { throw ended("before answering") }
            try pump(untilWritten: false)
        }
        defer {
            nextLine += 1
            if nextLine == lines.count {
                lines.removeAll(keepingCapacity: true)
                nextLine = 0
            }
        }
        lineNumber += 1
        return lines[nextLine]
    }

    /// Ends the child's input and waits for it to exit; throws unless it exits with status 0 and
    /// without writing more (every line it owed was read).
    func finish() throws(FallDetectError) {
        try flush()
        if input >= 0 {
            shutdown(input, Int32(SHUT_WR))
            close(input)
            input = -1
        }
        while output >= 0 { try pump(untilWritten: false) }
        if nextLine < lines.count {
            throw FallDetectError(.externalDetector, "wrote more after its last answer", path: command, line: lineNumber + 1)
        }
        try waitForExit()
        if let status, status != 0 { throw ended("after its last recording") }
    }

    /// Kills the child (and its process group) at once.
    func terminate() {
        guard status == nil else { return }
        kill(-pid, SIGKILL)
        reap(block: true)
    }

    /// One `poll` round at a time until the queue is written (`untilWritten`) or a line came.
    private func pump(untilWritten: Bool) throws(FallDetectError) {
        let clock = ContinuousClock()
        var deadline = clock.now + .milliseconds(Int64(timeout * 1000))
        let linesBefore = lines.count
        while true {
            let writing = input >= 0 && sent < pending.count
            if untilWritten ? !writing : lines.count > linesBefore { break }
            if !writing, output < 0 { break }
            var fds = [
                pollfd(fd: writing ? input : -1, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
            ]
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                terminate()
                throw FallDetectError(
                    .externalDetector, "timed out: nothing read or written for \(timeout) s; killed",
                    path: command, line: lastLine)
            }
            let waitMilliseconds = Int32(min(Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15 + 1, 60_000))
            let ready = poll(&fds, 2, waitMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw FallDetectError.io("cannot wait for the child", path: command, errno: errno)
            }
            var moved = false
            if fds[1].revents != 0 { moved = try readAvailable() || moved }
            if writing, fds[0].revents != 0 { moved = try writeAvailable() || moved }
            if moved { deadline = clock.now + .milliseconds(Int64(timeout * 1000)) }
        }
    }

    /// Reads what the child wrote; false when nothing came.
    private func readAvailable() throws(FallDetectError) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EAGAIN || errno == EINTR { return false }
            throw FallDetectError.io("cannot read the child's output", path: command, errno: errno)
        }
        if n == 0 {
            // Its output ended: a last line without a newline still counts.
            close(output)
            output = -1
            if !partial.isEmpty {
                lines.append(partial)
                partial = []
            }
            return true
        }
        var start = 0
        for i in 0..<n where buffer[i] == UInt8(ascii: "\n") {
            partial.append(contentsOf: buffer[start..<i])
            lines.append(partial)
            partial = []
            start = i + 1
        }
        partial.append(contentsOf: buffer[start..<n])
        return true
    }

    /// Writes what the child's input takes now; false when it took nothing.
    private func writeAvailable() throws(FallDetectError) -> Bool {
        let n = pending.withUnsafeBytes { Glibc.send(input, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
        if n < 0 {
            if errno == EAGAIN || errno == EINTR { return false }
            // The child closed its input or died: what it said, if anything, comes from its output.
            if errno == EPIPE || errno == ECONNRESET { throw ended("while reading its input") }
            throw FallDetectError.io("cannot write to the child", path: command, errno: errno)
        }
        sent += n
        if sent == pending.count {
            pending.removeAll(keepingCapacity: true)
            sent = 0
        }
        return n > 0
    }

    /// The error for a child that stopped: its exit status when it has one.
    private func ended(_ when: String) -> FallDetectError {
        try? waitForExit()
        let how: String
        if let status {
            let signal = status & 0x7f
            how = signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
        } else {
            how = "closed its output"
        }
        return FallDetectError(.externalDetector, "\(how) \(when)", path: command, line: lastLine)
    }

    /// Waits up to `timeout` for the child to exit, then kills it.
    private func waitForExit() throws(FallDetectError) {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(timeout * 1000))
        while status == nil {
            reap(block: false)
            if status != nil { return }
            guard clock.now < deadline else {
                terminate()
                throw FallDetectError(.externalDetector, "did not exit within \(timeout) s of its input's end; killed", path: command)
            }
            usleep(2000)
        }
    }

    private func reap(block: Bool) {
        guard status == nil else { return }
        var s: Int32 = 0
        while true {
            let r = waitpid(pid, &s, block ? 0 : WNOHANG)
            if r == pid { status = s; return }
            if r < 0, errno == EINTR { continue }
            if r < 0 { status = -1 }  // not ours to wait for any more
            return
        }
    }
}

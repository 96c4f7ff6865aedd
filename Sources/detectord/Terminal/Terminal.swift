#if canImport(Glibc)
import Glibc
#endif

/// Standard output and error, and whether a person is watching them.
struct Terminal: Sendable {
    let fd: Int32

    static let standardOutput = Terminal(fd: 1)
    static let standardError = Terminal(fd: 2)

    /// A live progress line only makes sense on a terminal; pipes and CI logs get final lines only.
    var isInteractive: Bool { isatty(fd) == 1 }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

import FallDetect
#if canImport(Glibc)
import Glibc
#endif

/// Small files a configuration names (a secret, a PIN hash, a model), read whole when the file is
/// checked, so a missing or unreadable one is reported before the daemon needs it.
enum ReferencedFile {
    /// Every such file is a line, or a model of a few hundred kilobytes.
    static let limit = 16 << 20

    /// The bytes of `path`; the error's message names the path and the system's reason
    /// ("cannot open /etc/x: No such file or directory").
    static func read(_ path: String) throws(FallDetectError) -> [UInt8] {
        func failure(_ what: String, _ code: Int32) -> FallDetectError {
            FallDetectError(.io, "cannot \(what) \(path): \(String(cString: strerror(code)))", path: path, errno: code)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= limit else {
                throw FallDetectError(.invalidArgument, "\(path) is larger than \(limit >> 20) MiB", path: path)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Reads whole files into memory with plain `read` calls: page cache to user memory runs at many
/// GB/s, so mmap would buy nothing here and complicate lifetimes.
enum FileContents {
    /// The whole file; `what` names it in errors ("cannot open recording"). A file that grows while
    /// it is read (a live recording) is read to its end.
    static func read(_ path: String, what: String) throws(FallDetectError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FallDetectError.io("cannot open \(what)", path: path, errno: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FallDetectError.io("cannot stat \(what)", path: path, errno: errno) }
        // Read what the file holds now straight into the array, then go on in chunks to the end.
        var failure: Int32?
        let expected = max(0, Int(status.st_size))
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected {
                let n = systemRead(fd, buffer.baseAddress! + count, expected - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }
                count += n
            }
        }
        if let failure { throw FallDetectError.io("cannot read \(what)", path: path, errno: failure) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FallDetectError.io("cannot read \(what)", path: path, errno: errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

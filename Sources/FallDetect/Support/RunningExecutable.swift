#if canImport(Glibc)
import Glibc
#endif

/// The running executable, for finding what is installed beside it (the shipped model, the page).
public enum RunningExecutable {
    /// Its path from /proc (symbolic links resolved), the first argument where that is unreadable.
    public static func path() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

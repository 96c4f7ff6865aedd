import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair for serial tests. glibc declares posix_openpt, grantpt, unlockpt and
/// ptsname only under _XOPEN_SOURCE, which Swift's Glibc module does not define, so they are
/// looked up in libc at run time; they are the same functions a C program would call.
struct PseudoTerminal {
    /// The master side (the "modem" end), non-blocking.
    let master: Int32
    /// The slave device path the code under test opens, e.g. /dev/pts/3.
    let path: String

    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias FDCall = @convention(c) (Int32) -> Int32
    private typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(nil, name) else { throw SimulatorError(message: "\(name) not found in libc", errno: 0) }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openpt = try Self.function("posix_openpt", as: OpenPT.self)
        let grantpt = try Self.function("grantpt", as: FDCall.self)
        let unlockpt = try Self.function("unlockpt", as: FDCall.self)
        let ptsname = try Self.function("ptsname", as: PTSName.self)
        let master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SimulatorError(message: "posix_openpt failed", errno: errno) }
        guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            let code = errno
            close(master)
            throw SimulatorError(message: "cannot set up the pseudo-terminal", errno: code)
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        path = String(cString: name)
    }
}

struct SimulatorError: Error, CustomStringConvertible {
    var message: String
    var errno: Int32
    var description: String { "\(message) (errno \(errno))" }
}

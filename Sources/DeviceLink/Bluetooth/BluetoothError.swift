#if canImport(Glibc)
import Glibc
#endif

/// A failed Bluetooth call with its errno.
public struct BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errno: Int32
    public var operation: String

    public init(errno: Int32, operation: String) {
        self.errno = errno
        self.operation = operation
    }

    public var description: String {
        "\(operation): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A failed I2C operation: the errno the kernel or libi2c gave, the bus and the register involved.
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errno: Int32
    public var bus: String
    public var operation: String

    public init(errno: Int32, bus: String, operation: String) {
        self.errno = errno
        self.bus = bus
        self.operation = operation
    }

    /// The device stopped answering (unplugged, NACK) rather than a bus or programming fault.
    public var isDeviceGone: Bool {
        errno == EREMOTEIO || errno == ENXIO || errno == ENODEV
    }

    public var description: String {
        "\(bus): \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

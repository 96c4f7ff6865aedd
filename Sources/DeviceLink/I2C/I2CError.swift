#if canImport(Glibc)
import Glibc
#endif

/// A failed I2C transfer: the errno the kernel (or a simulator) gave, with the bus, the peripheral
/// and the register involved, so a log line says which wire to check.
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a failure means for the daemon, from the kernel's fault codes
    /// (Documentation/i2c/fault-codes.rst).
    public enum Kind: Sendable, Equatable {
        /// Nothing acknowledged the address: unplugged, wrong address, or powered off
        /// (EREMOTEIO on a Raspberry Pi, ENXIO on some adapters, ENODEV when the adapter went).
        case deviceGone
        /// The bus did not complete: SDA or SCL held low, a chip stuck mid-byte (ETIMEDOUT, EBUSY).
        case busHung
        /// A kernel driver has bound the address: binding an fd to it (`I2C_SLAVE`, before an
        /// SMBus transfer) gives EBUSY, where on a transfer EBUSY means a hung bus.
        case addressInUse
        /// Another master won arbitration (EAGAIN): try again.
        case arbitrationLost
        /// The transfer went wrong midway (EIO, EPROTO, EBADMSG): i2c-bcm2835 gives EIO for a
        /// clock-stretch timeout or a short transfer, what noise or a loose connector causes.
        case transferFailed
        /// Anything else (no such bus, not an I2C device, unsupported transfer).
        case other
    }

    public var errno: Int32
    public var bus: String
    public var operation: String
    public var address: UInt8?
    public var register: UInt8?

    public init(errno: Int32, bus: String, operation: String, address: UInt8? = nil, register: UInt8? = nil) {
        self.errno = errno
        self.bus = bus
        self.operation = operation
        self.address = address
        self.register = register
    }

    /// The operation of binding the fd to an address (`LinuxI2CBus.select`).
    static let selectOperation = "select"

    public var kind: Kind {
        if errno == EBUSY, operation == Self.selectOperation { return .addressInUse }
        return switch errno {
        case EREMOTEIO, ENXIO, ENODEV, ESHUTDOWN: .deviceGone
        case ETIMEDOUT, EBUSY: .busHung
        case EAGAIN: .arbitrationLost
        case EIO, EPROTO, EBADMSG: .transferFailed
        default: .other
        }
    }

    /// The device stopped answering (unplugged, NACK) rather than a bus or programming fault.
    public var isDeviceGone: Bool { kind == .deviceGone }

    /// ENODEV: the adapter itself went (a USB bridge unplugged, its driver rebound), not a chip
    /// that does not answer: the open bus never reaches anything again, so a search must not
    /// take it for an empty address.
    public var isAdapterGone: Bool { errno == ENODEV }

    /// A fault that may clear by itself (unplug, hung bus, arbitration, a garbled transfer): back
    /// off and re-probe.
    public var isTransient: Bool { kind != .other }

    public var description: String {
        var place = bus
        if let address { place += " at 0x" + String(address, radix: 16) }
        if let register { place += " register 0x" + String(register, radix: 16, uppercase: true) }
        let meaning: String =
            switch kind {
            case .deviceGone: "; no device answered (unplugged or wrong address?)"
            case .busHung: "; the bus is hung"
            case .addressInUse: "; a kernel driver has bound this address (a dtoverlay in config.txt?)"
            case .arbitrationLost: "; arbitration lost"
            case .transferFailed: "; the transfer failed (noise or a loose connector?)"
            case .other: ""
            }
        return "\(place): \(operation): \(String(cString: strerror(errno))) (errno \(errno))\(meaning)"
    }
}

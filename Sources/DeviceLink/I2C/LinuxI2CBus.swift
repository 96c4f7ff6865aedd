import CI2C
#if canImport(Glibc)
import Glibc
#endif

/// A Linux i2c-dev bus (`/dev/i2c-1` on a Raspberry Pi) driven through libi2c's SMBus calls.
public final class LinuxI2CBus {
    public let path: String
    private let fd: Int32

    public init(path: String) throws(I2CError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw I2CError(errno: Glibc.errno, bus: path, operation: "open") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Selects the peripheral that later transfers address.
    public func select(address: UInt8) throws(I2CError) {
        if ci2c_set_address(fd, UInt(address)) < 0 {
            throw I2CError(errno: ci2c_last_error(), bus: path, operation: "select 0x\(String(address, radix: 16))")
        }
    }

    /// Reads one register of the selected peripheral.
    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        // libi2c 4.3 returns -errno on failure (and sets errno too).
        let value = i2c_smbus_read_byte_data(fd, register)
        if value < 0 {
            throw I2CError(errno: -value, bus: path, operation: "read register 0x\(String(register, radix: 16))")
        }
        return UInt8(truncatingIfNeeded: value)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// An I2C bus made of register maps: peripherals answer from their arrays, absent addresses fail
/// with EREMOTEIO as the Raspberry Pi's controller does on a NACK, and faults can be injected.
public final class RegisterMapI2CBus: I2CBus {
    public let name: String
    private var devices: [UInt8: [UInt8]] = [:]
    /// When set, every transfer fails with this errno (a held-low bus gives ETIMEDOUT).
    public var injectedErrno: Int32?

    public init(name: String = "simulated-i2c") {
        self.name = name
    }

    /// Attaches a peripheral whose 256 registers start as `registers` (padded with zeros).
    public func attach(address: UInt8, registers: [UInt8: UInt8]) {
        var map = [UInt8](repeating: 0, count: 256)
        for (register, value) in registers { map[Int(register)] = value }
        devices[address] = map
    }

    public func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        if let injectedErrno { throw I2CError(errno: injectedErrno, bus: name, operation: "read") }
        guard let map = devices[address] else {
            throw I2CError(errno: EREMOTEIO, bus: name, operation: "read 0x\(String(address, radix: 16))")
        }
        return map[Int(register)]
    }
}

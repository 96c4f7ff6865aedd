#if canImport(Glibc)
import Glibc
#endif

/// An I2C bus of static register maps: peripherals answer from their arrays (auto-incrementing),
/// absent addresses fail with EREMOTEIO as the Raspberry Pi's controller does on a NACK, and
/// faults can be injected. For identity scans; chips that stream are `SimulatedI2CBus` devices.
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

    /// Kernel drivers bound to addresses, as sysfs would show them (see `I2CClaim`).
    public var claims: [UInt8: I2CClaim] = [:]

    public func claim(address: UInt8) -> I2CClaim? { claims[address] }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if let injectedErrno { throw I2CError(errno: injectedErrno, bus: name, operation: "read", address: address, register: register) }
        guard let map = devices[address] else {
            throw I2CError(errno: EREMOTEIO, bus: name, operation: "read", address: address, register: register)
        }
        for index in 0..<buffer.count { buffer[index] = map[(Int(register) + index) & 0xFF] }
    }

    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError) {
        if let injectedErrno { throw I2CError(errno: injectedErrno, bus: name, operation: "write", address: address, register: register) }
        guard devices[address] != nil else {
            throw I2CError(errno: EREMOTEIO, bus: name, operation: "write", address: address, register: register)
        }
        for (index, byte) in bytes.enumerated() { devices[address]![(Int(register) + index) & 0xFF] = byte }
    }
}

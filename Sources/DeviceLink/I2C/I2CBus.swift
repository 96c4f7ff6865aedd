/// Register access on an I2C bus: what IMU drivers need, implemented by Linux's i2c-dev
/// (`LinuxI2CBus`) and by the register-level simulators the tests use (this kernel has no I2C).
///
/// Two primitives, each one bus transaction: a write of a register address followed by data, and
/// a combined write-then-read (repeated START) of any length, which FIFO drains need.
public protocol I2CBus: AnyObject {
    /// A name for messages, such as `/dev/i2c-1`.
    var name: String { get }
    /// Reads `buffer.count` bytes starting at `register` of the peripheral at a 7-bit address, in
    /// one transaction; how the register pointer advances is the chip's own rule.
    func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)
    /// Writes `bytes` starting at `register`, in one transaction.
    func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError)
    /// The kernel driver bound to the peripheral at `address`, if any (see `I2CClaim`).
    func claim(address: UInt8) -> I2CClaim?
}

extension I2CBus {
    /// A bus without kernel drivers of its own claims nothing.
    public func claim(address: UInt8) -> I2CClaim? { nil }

    /// Reads one 8-bit register.
    public func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        try read(address: address, register: register, count: 1)[0]
    }

    /// Reads `count` bytes starting at `register` in one transaction.
    public func read(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        // Array's closure-taking accessors rethrow untyped errors; a scratch buffer keeps the type.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        try read(address: address, register: register, into: buffer)
        return [UInt8](buffer)
    }

    /// Writes one 8-bit register.
    public func writeRegister(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        try write(address: address, register: register, bytes: [value])
    }
}

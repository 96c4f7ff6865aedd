/// Register access on an I2C bus: what IMU drivers need, implemented by the Linux bus and by the
/// register-map simulator the tests use (this kernel has no I2C).
public protocol I2CBus: AnyObject {
    /// A name for messages, such as `/dev/i2c-1`.
    var name: String { get }
    /// Reads one 8-bit register of the peripheral at a 7-bit address.
    func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8
}

extension LinuxI2CBus: I2CBus {
    public var name: String { path }

    public func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        try select(address: address)
        return try readByte(register: register)
    }
}

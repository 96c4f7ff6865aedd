/// A driver's view of its chip: register reads and writes on one address that fail as
/// `IMUError.bus`, and the byte-order helpers data sheets need.
public struct ChipRegisters {
    public let bus: any I2CBus
    public let address: UInt8

    public init(bus: any I2CBus, address: UInt8) {
        self.bus = bus
        self.address = address
    }

    public func read(_ register: UInt8) throws(IMUError) -> UInt8 {
        do { return try bus.readRegister(address: address, register: register) } catch { throw .bus(error) }
    }

    public func read(_ register: UInt8, count: Int) throws(IMUError) -> [UInt8] {
        do { return try bus.read(address: address, register: register, count: count) } catch { throw .bus(error) }
    }

    public func read(_ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(IMUError) {
        do { try bus.read(address: address, register: register, into: buffer) } catch { throw .bus(error) }
    }

    public func write(_ register: UInt8, _ value: UInt8) throws(IMUError) {
        do { try bus.writeRegister(address: address, register: register, value: value) } catch { throw .bus(error) }
    }

    /// Read-modify-write of the bits in `mask`.
    public func update(_ register: UInt8, mask: UInt8, value: UInt8) throws(IMUError) {
        let old = try read(register)
        try write(register, (old & ~mask) | (value & mask))
    }

    /// Checks the identity register against the model's values.
    public func checkIdentity(of model: IMUModel) throws(IMUError) {
        let found = try read(model.identityRegister)
        guard model.identityValues.contains(found) else {
            throw .wrongIdentity(chip: model.name, bus: bus.name, address: address, register: model.identityRegister, found: found, expected: model.identityValues)
        }
    }

    public static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    public static func littleEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset]))
    }
}

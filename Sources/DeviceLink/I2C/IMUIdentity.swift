/// A chip found on a bus by its identity register, and the scan that finds them.
public struct IMUIdentity: Sendable, Hashable, CustomStringConvertible {
    public var model: IMUModel
    public var address: UInt8
    public var idValue: UInt8

    public var chip: String { model.name }
    public var idRegister: UInt8 { model.identityRegister }

    public var description: String {
        "\(chip) at 0x\(String(address, radix: 16)) (register \(Self.byte(idRegister)) = \(Self.byte(idValue)))"
    }

    /// 0x0F, two hex digits as data sheets write registers.
    static func byte(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// Addresses where known parts can answer, in scan order.
    public static let addresses: [UInt8] = [0x68, 0x69, 0x6A, 0x6B, 0x53, 0x1D]
    /// Identity registers in the order they are read: the MPU family's 0x75 first, since an MPU's
    /// register 0x00 holds trim bits that could look like another chip's identity.
    static let registers: [UInt8] = [0x75, 0x0F, 0x00]

    /// Reads the identity registers at `addresses`. Addresses that do not answer are skipped;
    /// any other bus failure (no such bus, a hung bus) is thrown.
    public static func scan(_ bus: some I2CBus, addresses: [UInt8] = addresses) throws(I2CError) -> [IMUIdentity] {
        var found: [IMUIdentity] = []
        for address in addresses {
            if let identity = try identify(bus, at: address) { found.append(identity) }
        }
        return found
    }

    /// The known chip at one address, nil when nothing answers or the answer is unknown.
    public static func identify(_ bus: some I2CBus, at address: UInt8) throws(I2CError) -> IMUIdentity? {
        for register in registers {
            let value: UInt8
            do {
                value = try bus.readRegister(address: address, register: register)
            } catch where error.isDeviceGone && !error.isAdapterGone {
                return nil
            }
            if let model = IMUModel.matching(register: register, value: value, address: address) {
                return IMUIdentity(model: model, address: address, idValue: value)
            }
        }
        // Only when nothing known answered, so a known chip is never written.
        guard address == 0x68 || address == 0x69, try returnToBankZero(bus, at: address) else { return nil }
        let value = try bus.readRegister(address: address, register: 0x00)
        guard let model = IMUModel.matching(register: 0x00, value: value, address: address), model.family == .icm20948 else { return nil }
        return IMUIdentity(model: model, address: address, idValue: value)
    }

    /// An ICM-20948 left in another register bank (a set-up cut short) answers register 0x00 of
    /// that bank. REG_BANK_SEL (0x7F) is in every bank: only when it reads as a bank number other
    /// than 0 is it set back to 0, so no other chip is written. True when it was.
    static func returnToBankZero(_ bus: some I2CBus, at address: UInt8) throws(I2CError) -> Bool {
        let bank = try bus.readRegister(address: address, register: ICM20948Register.bankSelect)
        guard bank != 0, bank & ~0x30 == 0 else { return false }
        try bus.writeRegister(address: address, register: ICM20948Register.bankSelect, value: 0)
        return true
    }
}

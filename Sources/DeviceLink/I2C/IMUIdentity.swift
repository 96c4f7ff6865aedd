/// The IMU chips detectord recognises by their identity register, and a scan that finds them.
/// Values from the vendors' data sheets as the Linux kernel drivers use them.
public struct IMUIdentity: Sendable, Hashable, CustomStringConvertible {
    public var chip: String
    public var address: UInt8
    public var idRegister: UInt8
    public var idValue: UInt8

    public var description: String {
        "\(chip) at 0x\(String(address, radix: 16)) (register 0x\(String(idRegister, radix: 16, uppercase: true)) = 0x\(String(idValue, radix: 16, uppercase: true)))"
    }

    /// (register, value, chip) for every recognised part.
    static let known: [(register: UInt8, value: UInt8, chip: String)] = [
        (0x75, 0x68, "MPU-6050"), (0x75, 0x70, "MPU-6500"), (0x75, 0x71, "MPU-9250"),
        (0x75, 0x73, "MPU-9255"), (0x75, 0x98, "ICM-20689"), (0x00, 0xEA, "ICM-20948"),
        (0x0F, 0x69, "LSM6DS3"), (0x0F, 0x6A, "LSM6DSL"), (0x0F, 0x6C, "LSM6DSO"), (0x0F, 0x6B, "LSM6DSR"),
        (0x00, 0xD1, "BMI160"), (0x00, 0x24, "BMI270"), (0x00, 0xE5, "ADXL345"),
    ]

    /// Addresses where those parts can answer.
    static let addresses: [UInt8] = [0x68, 0x69, 0x6A, 0x6B, 0x53, 0x1D]

    /// Reads the identity registers at every candidate address. Addresses that do not answer are
    /// skipped; any other bus failure (no such bus, bus timeout) is thrown.
    public static func scan(_ bus: some I2CBus) throws(I2CError) -> [IMUIdentity] {
        var found: [IMUIdentity] = []
        for address in addresses {
            for register in Set(known.map(\.register)).sorted() {
                let value: UInt8
                do {
                    value = try bus.readRegister(address: address, register: register)
                } catch where error.isDeviceGone {
                    break
                }
                if let match = known.first(where: { $0.register == register && $0.value == value }) {
                    found.append(IMUIdentity(chip: match.chip, address: address, idRegister: register, idValue: value))
                    break
                }
            }
        }
        return found
    }
}

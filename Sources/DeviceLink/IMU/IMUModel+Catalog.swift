/// Every chip detectord recognises, with identity values from the kernel's drivers and the
/// vendors' data sheets (../shared/reference/hardware.md section 2 lists the sources), including
/// the clone and sibling answers boards sold under one name really give.
extension IMUModel {
    public static let catalog: [IMUModel] = [
        IMUModel(name: "MPU-6050", family: .mpu6050, identityRegister: 0x75, identityValues: [0x68], addresses: [0x68, 0x69]),
        IMUModel(name: "MPU-6500", family: .mpu6500, identityRegister: 0x75, identityValues: [0x70], addresses: [0x68, 0x69],
                 note: "often sold as an MPU-6050 board; read with the MPU-6500 driver"),
        IMUModel(name: "MPU-9250", family: .mpu6500, identityRegister: 0x75, identityValues: [0x71], addresses: [0x68, 0x69],
                 note: "its AK8963 magnetometer is not read"),
        IMUModel(name: "MPU-9255", family: .mpu6500, identityRegister: 0x75, identityValues: [0x73], addresses: [0x68, 0x69],
                 note: "its AK8963 magnetometer is not read"),
        IMUModel(name: "MPU-6050 clone (ICM-20689-type)", family: .mpu6500, identityRegister: 0x75, identityValues: [0x98], addresses: [0x68, 0x69],
                 note: "most boards sold as MPU-6050 today answer 0x98; it has the MPU-6500 register map"),
        IMUModel(name: "MPU-6050 clone", family: .mpu6500, identityRegister: 0x75, identityValues: [0x74, 0x78], addresses: [0x68, 0x69],
                 note: "an unbranded clone; read with the MPU-6500 driver"),
        IMUModel(name: "ICM-20948", family: .icm20948, identityRegister: 0x00, identityValues: [0xEA], addresses: [0x68, 0x69],
                 note: "its AK09916 magnetometer is not read"),
        IMUModel(name: "LSM6DS3", family: .lsm6ds3, identityRegister: 0x0F, identityValues: [0x69], addresses: [0x6A, 0x6B]),
        IMUModel(name: "LSM6DSL", family: .lsm6ds3, identityRegister: 0x0F, identityValues: [0x6A], addresses: [0x6A, 0x6B],
                 note: "LSM6DSM, LSM6DS3TR-C and ISM330DLC answer the same"),
        IMUModel(name: "LSM6DSO", family: .lsm6dso, identityRegister: 0x0F, identityValues: [0x6C], addresses: [0x6A, 0x6B],
                 note: "the LSM6DSOX answers the same and reads the same"),
        IMUModel(name: "LSM6DSR", family: .lsm6dso, identityRegister: 0x0F, identityValues: [0x6B], addresses: [0x6A, 0x6B],
                 note: "ISM330DHCX and ASM330LHH answer the same; read with the LSM6DSO driver (same tagged FIFO and ranges up to 2000 °/s)"),
        IMUModel(name: "BMI160", family: .bmi160, identityRegister: 0x00, identityValues: [0xD1], addresses: [0x68, 0x69]),
        IMUModel(name: "ADXL345", family: .adxl345, identityRegister: 0x00, identityValues: [0xE5], addresses: [0x53, 0x1D],
                 note: "an ADXL375 (±200 g) answers the same: set chip = \"adxl375\" for one"),
        IMUModel(name: "ITG-3200", family: .itg3200, identityRegister: 0x00, identityValues: [0x68, 0x69], addresses: [0x68, 0x69],
                 note: "a gyroscope only: pair it with an ADXL345 (chip = \"adxl345+itg3200\")"),
    ]

    /// Models a scan cannot tell apart from another and the configuration names: the ADXL375
    /// (same identity as the ADXL345) and SisFall's ADXL345 + ITG-3200 pair.
    public static let configured: [IMUModel] = [
        IMUModel(name: "ADXL375", family: .adxl375, identityRegister: 0x00, identityValues: [0xE5], addresses: [0x53, 0x1D]),
        IMUModel(name: "ADXL345 + ITG-3200", family: .adxl345ITG3200, identityRegister: 0x00, identityValues: [0xE5], addresses: [0x53, 0x1D],
                 note: "the ITG-3200 answers at 0x68 (or 0x69)"),
    ]

    /// The model answering `value` at `register`, preferring the order above (the MPU family's
    /// 0x75 is read before register 0x00, where an ITG-3200 and other chips answer).
    public static func matching(register: UInt8, value: UInt8, address: UInt8) -> IMUModel? {
        catalog.first { $0.identityRegister == register && $0.identityValues.contains(value) && $0.addresses.contains(address) }
    }

    /// The first model of a family, for a chip named in the configuration.
    public static func first(of family: IMUFamily) -> IMUModel? {
        (catalog + configured).first { $0.family == family }
    }
}

import DeviceLink

/// The IMU on the bus; `auto` identifies it by its identity register (as `detectord probe` does).
/// A scan cannot tell an ADXL375 from an ADXL345, nor see that an ITG-3200 is paired with one:
/// those two are named here.
enum I2CChip: String, Sendable, Equatable, CaseIterable {
    case auto, mpu6050, mpu6500, mpu9250, icm20948, lsm6ds3, lsm6dsl, lsm6dso, lsm6dsox, bmi160, adxl345, adxl375, itg3200
    case adxl345ITG3200 = "adxl345+itg3200"

    /// The driver family; nil for `auto`.
    var family: IMUFamily? {
        switch self {
        case .auto: nil
        case .mpu6050: .mpu6050
        case .mpu6500, .mpu9250: .mpu6500
        case .icm20948: .icm20948
        case .lsm6ds3, .lsm6dsl: .lsm6ds3
        case .lsm6dso, .lsm6dsox: .lsm6dso
        case .bmi160: .bmi160
        case .adxl345: .adxl345
        case .adxl375: .adxl375
        case .itg3200: .itg3200
        case .adxl345ITG3200: .adxl345ITG3200
        }
    }

    /// The configuration's name for a model found by a scan.
    init(model: IMUModel) {
        switch model.family {
        case .mpu6050: self = .mpu6050
        case .mpu6500: self = model.name.hasPrefix("MPU-92") ? .mpu9250 : .mpu6500
        case .icm20948: self = .icm20948
        case .lsm6ds3: self = model.name == "LSM6DSL" ? .lsm6dsl : .lsm6ds3
        case .lsm6dso: self = .lsm6dso
        case .bmi160: self = .bmi160
        case .adxl345: self = .adxl345
        case .adxl375: self = .adxl375
        case .itg3200: self = .itg3200
        case .adxl345ITG3200: self = .adxl345ITG3200
        }
    }
}

/// The IMU on the bus; `auto` identifies it by its identity register (as `detectord probe` does).
enum I2CChip: String, Sendable, Equatable, CaseIterable {
    case auto, mpu6050, mpu6500, icm20948, lsm6ds3, lsm6dso, bmi160, adxl345, adxl375
}

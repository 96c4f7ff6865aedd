/// The driver families: chips that share a register map closely enough to share a driver.
public enum IMUFamily: String, Sendable, Hashable, CaseIterable {
    /// MPU-6050/6000/9150: 1 KB FIFO, one DLPF for both sensors.
    case mpu6050
    /// MPU-6500/9250/9255 and the ICM-20689-type clones sold as MPU-6050: 512 B FIFO,
    /// ACCEL_CONFIG_2.
    case mpu6500
    /// ICM-20948: banked registers, 12-bit accelerometer divider.
    case icm20948
    /// LSM6DS3/LSM6DSL: untagged FIFO of gyroscope-then-accelerometer patterns.
    case lsm6ds3
    /// LSM6DSO/LSM6DSOX: tagged FIFO words.
    case lsm6dso
    case bmi160
    /// ADXL345: accelerometer only, 32-entry FIFO (SisFall's accelerometer).
    case adxl345
    /// ADXL375: the ±200 g sibling of the ADXL345, for crashes.
    case adxl375
    /// ITG-3200: gyroscope only, no FIFO (SisFall's gyroscope).
    case itg3200
    /// An ADXL345 and an ITG-3200 read as one IMU, as on SisFall's belt unit.
    case adxl345ITG3200 = "adxl345+itg3200"
}

/// MPU-6050/6500 register addresses and bits (MPU-6000/6050 and MPU-6500 register maps; kernel
/// drivers/iio/imu/inv_mpu6050/inv_mpu_iio.h). ../shared/reference/hardware.md 2.2 lists them.
enum MPU6050Register {
    static let sampleRateDivider: UInt8 = 0x19
    /// CONFIG: DLPF_CFG bits 2:0; bit 6 FIFO_MODE on the 6500 (0: a full FIFO overwrites the oldest).
    static let config: UInt8 = 0x1A
    /// FS_SEL bits 4:3; on the 6500 FCHOICE_B bits 1:0 (0: the DLPF is used).
    static let gyroConfig: UInt8 = 0x1B
    /// AFS_SEL bits 4:3.
    static let accelConfig: UInt8 = 0x1C
    /// MPU-6500 only: A_DLPF_CFG bits 2:0, ACCEL_FCHOICE_B bit 3.
    static let accelConfig2: UInt8 = 0x1D
    static let fifoEnable: UInt8 = 0x23
    static let intEnable: UInt8 = 0x38
    static let intStatus: UInt8 = 0x3A
    /// ACCEL_XOUT_H: accelerometer (6), temperature (2), gyroscope (6), big-endian.
    static let accelXOutH: UInt8 = 0x3B
    static let userControl: UInt8 = 0x6A
    static let powerManagement1: UInt8 = 0x6B
    static let powerManagement2: UInt8 = 0x6C
    static let fifoCountH: UInt8 = 0x72
    /// FIFO_R_W: the pointer stays here while reading, so one read drains many bytes.
    static let fifoReadWrite: UInt8 = 0x74
    static let whoAmI: UInt8 = 0x75

    // FIFO_EN bits: records hold the enabled sensors in register order.
    static let fifoTemperature: UInt8 = 0x80
    static let fifoGyroX: UInt8 = 0x40
    static let fifoGyroY: UInt8 = 0x20
    static let fifoGyroZ: UInt8 = 0x10
    static let fifoAccel: UInt8 = 0x08

    // INT_ENABLE / INT_STATUS bits.
    static let fifoOverflow: UInt8 = 0x10
    static let rawDataReady: UInt8 = 0x01

    // USER_CTRL bits.
    static let userFIFOEnable: UInt8 = 0x40
    static let userFIFOReset: UInt8 = 0x04

    // PWR_MGMT_1 / PWR_MGMT_2 bits.
    static let deviceReset: UInt8 = 0x80
    static let sleep: UInt8 = 0x40
    /// CLKSEL = 1: the X gyroscope's PLL, steadier than the internal oscillator.
    static let clockPLL: UInt8 = 0x01
    /// STBY_XA..STBY_ZG: every axis of both sensors in standby.
    static let standbyAll: UInt8 = 0x3F

    /// FIFO bytes: 1024 on the MPU-6050/6000/9150, 512 on the 6500/9250/9255 (kernel `hw_info.fifo_size`).
    static func fifoBytes(_ family: IMUFamily) -> Int { family == .mpu6050 ? 1024 : 512 }
    /// How long each sensor's output is not yet valid after it leaves standby (kernel
    /// INV_MPU6050_GYRO_STARTUP_TIME 60 ms, ACCEL 20 ms; INV_MPU6500_* 70 and 30 ms).
    static func gyroscopeStartupNanoseconds(_ family: IMUFamily) -> Int64 { family == .mpu6050 ? 60_000_000 : 70_000_000 }
    static func accelerometerStartupNanoseconds(_ family: IMUFamily) -> Int64 { family == .mpu6050 ? 20_000_000 : 30_000_000 }

    /// Accelerometer -3 dB corners for DLPF_CFG 1...6 (the setting also filters the gyroscope, and
    /// keeps its internal rate at 1 kHz: 0 and 7 run it at 8 kHz). MPU-6050 register map 4.3;
    /// MPU-6500 register map 4.8 (A_DLPF_CFG, ACCEL_FCHOICE_B = 0).
    static func lowPassCorners(_ family: IMUFamily) -> [Double] {
        family == .mpu6050 ? [184, 94, 44, 21, 10, 5] : [218.1, 99, 44.8, 21.2, 10.2, 5.05]
    }
}

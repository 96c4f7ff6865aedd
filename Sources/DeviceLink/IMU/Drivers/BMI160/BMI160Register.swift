/// BMI160 register addresses, commands and bits (Bosch BMI160 data sheet section 2.11 and the
/// SensorAPI's bmi160_defs.h; kernel drivers/iio/imu/bmi160/bmi160_core.c). hardware.md 2.2
/// lists them.
enum BMI160Register {
    static let chipID: UInt8 = 0x00
    /// PMU_STATUS: acc_pmu_status bits 5:4, gyr_pmu_status bits 3:2 (0b00 suspend, 0b01 normal).
    static let pmuStatus: UInt8 = 0x03
    /// DATA_8…DATA_19: gyroscope x, y, z (0x0C…0x11) then accelerometer (0x12…0x17), little-endian.
    static let gyroXLow: UInt8 = 0x0C
    static let accelXLow: UInt8 = 0x12
    /// STATUS: drdy_acc bit 7, drdy_gyr bit 6, each cleared by reading that sensor's data.
    static let status: UInt8 = 0x1B
    /// INT_STATUS_1: ffull_int bit 5, fwm_int bit 6 (SensorAPI BMI160_FFULL_INT_STATUS 0x20).
    static let intStatus1: UInt8 = 0x1D
    /// FIFO_LENGTH_0/1: an 11-bit byte count, bits 2:0 of the second byte high.
    static let fifoLength0: UInt8 = 0x22
    static let fifoLength1: UInt8 = 0x23
    /// FIFO_DATA: the pointer stays here while reading, so one long read streams the FIFO.
    static let fifoData: UInt8 = 0x24
    /// ACC_CONF: acc_odr bits 3:0, acc_bwp bits 6:4, acc_us bit 7.
    static let accelConfig: UInt8 = 0x40
    static let accelRange: UInt8 = 0x41
    /// GYR_CONF: gyr_odr bits 3:0, gyr_bwp bits 5:4.
    static let gyroConfig: UInt8 = 0x42
    static let gyroRange: UInt8 = 0x43
    /// FIFO_CONFIG_0: the watermark in units of 4 bytes.
    static let fifoConfig0: UInt8 = 0x46
    /// FIFO_CONFIG_1: which sensors the FIFO takes and whether frames carry a header.
    static let fifoConfig1: UInt8 = 0x47
    /// INT_EN_1: int_ffull_en bit 5 (the ffull status is only raised while enabled).
    static let intEnable1: UInt8 = 0x51
    static let command: UInt8 = 0x7E

    // CMD values.
    static let softReset: UInt8 = 0xB6
    static let accelNormal: UInt8 = 0x11
    static let accelSuspend: UInt8 = 0x10
    static let gyroNormal: UInt8 = 0x15
    static let gyroSuspend: UInt8 = 0x14
    static let fifoFlush: UInt8 = 0xB0

    // STATUS bits.
    static let accelReady: UInt8 = 0x80
    static let gyroReady: UInt8 = 0x40

    // INT_STATUS_1 / INT_EN_1 bit.
    static let fifoFull: UInt8 = 0x20

    // FIFO_CONFIG_1 bits.
    static let fifoGyro: UInt8 = 0x80
    static let fifoAccel: UInt8 = 0x40
    static let fifoHeader: UInt8 = 0x10

    // PMU_STATUS fields.
    static let accelPMUMask: UInt8 = 0x30
    static let accelPMUNormal: UInt8 = 0x10
    static let gyroPMUMask: UInt8 = 0x0C
    static let gyroPMUNormal: UInt8 = 0x04

    /// acc_bwp / gyr_bwp 0b010: the normal filter mode (no oversampling), in bits 6:4 and 5:4.
    static let normalBandwidth: UInt8 = 0x20

    /// FIFO bytes (data sheet 2.5: "FIFO buffer of 1024 bytes").
    static let fifoBytes = 1024
    /// A headerless frame of both sensors: gyroscope (6) then accelerometer (6), as SensorAPI's
    /// BMI160_FIFO_GA_LENGTH and its unpacking of G_A frames.
    static let frameBytes = 12
}

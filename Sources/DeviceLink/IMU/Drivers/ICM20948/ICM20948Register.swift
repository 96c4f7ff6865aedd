/// ICM-20948 register addresses and bits by user bank (ICM-20948 data sheet DS-000189 section 7-8;
/// Adafruit_ICM20X, SparkFun ICM_20948_REGISTERS.h). ../shared/reference/hardware.md 2.2 lists them.
enum ICM20948Register {
    /// REG_BANK_SEL, present in every bank: bank number in bits 5:4.
    static let bankSelect: UInt8 = 0x7F

    // Bank 0.
    static let whoAmI: UInt8 = 0x00
    /// USER_CTRL: DMP_EN 0x80, FIFO_EN 0x40, I2C_MST_EN 0x20, SRAM_RST 0x04.
    static let userControl: UInt8 = 0x03
    static let powerManagement1: UInt8 = 0x06
    static let powerManagement2: UInt8 = 0x07
    /// INT_ENABLE_1: RAW_DATA_0_RDY_EN bit 0; INT_ENABLE_2 (0x12): FIFO_OVERFLOW_EN bits 4:0.
    static let intEnable1: UInt8 = 0x11
    /// INT_STATUS_1: RAW_DATA_0_RDY_INT bit 0, cleared on read.
    static let intStatus1: UInt8 = 0x1A
    /// INT_STATUS_2: FIFO_OVERFLOW_INT bits 4:0, cleared on read.
    static let intStatus2: UInt8 = 0x1B
    /// ACCEL_XOUT_H: accelerometer (6), gyroscope (6), temperature (2), big-endian.
    static let accelXOutH: UInt8 = 0x2D
    /// FIFO_EN_1 (slaves), FIFO_EN_2: TEMP 0x01, GYRO X/Y/Z 0x02/0x04/0x08, ACCEL 0x10.
    static let fifoEnable1: UInt8 = 0x66
    static let fifoEnable2: UInt8 = 0x67
    /// FIFO_RST: FIFO_RESET bits 4:0, one per FIFO; a FIFO stays empty while its bit is set.
    static let fifoReset: UInt8 = 0x68
    /// FIFO_MODE bits 4:0: 0 stream (a full FIFO overwrites the oldest), 1 snapshot.
    static let fifoMode: UInt8 = 0x69
    /// FIFO_COUNTH (bits 4:0 of a 13-bit count) and FIFO_COUNTL.
    static let fifoCountH: UInt8 = 0x70
    /// FIFO_R_W: the pointer stays here while reading.
    static let fifoReadWrite: UInt8 = 0x72
    /// FIFO_CFG: 0 one FIFO for every sensor.
    static let fifoConfig: UInt8 = 0x76

    // Bank 2.
    /// GYRO_SMPLRT_DIV, then GYRO_CONFIG_1 (0x01): FCHOICE bit 0, FS_SEL bits 2:1, DLPFCFG bits 5:3.
    static let gyroSampleRateDivider: UInt8 = 0x00
    static let gyroConfig1: UInt8 = 0x01
    /// ODR_ALIGN_EN: the two sensors' output starts together.
    static let odrAlign: UInt8 = 0x09
    /// ACCEL_SMPLRT_DIV_1 (bits 11:8) and _2 (bits 7:0).
    static let accelSampleRateDivider1: UInt8 = 0x10
    /// ACCEL_CONFIG: FCHOICE bit 0, FS_SEL bits 2:1, DLPFCFG bits 5:3.
    static let accelConfig: UInt8 = 0x14

    static let deviceReset: UInt8 = 0x80
    static let sleep: UInt8 = 0x40
    /// CLKSEL = 1: the best clock available (the PLL once the gyroscope runs).
    static let clockAuto: UInt8 = 0x01
    /// DISABLE_ACCEL 0x38 | DISABLE_GYRO 0x07.
    static let disableAll: UInt8 = 0x3F
    static let userFIFOEnable: UInt8 = 0x40
    static let fifoAccel: UInt8 = 0x10
    static let fifoGyroXYZ: UInt8 = 0x0E
    static let fifoTemperature: UInt8 = 0x01
    static let rawDataReady: UInt8 = 0x01
    static let fifoOverflowBits: UInt8 = 0x1F
    static let fchoice: UInt8 = 0x01

    /// 512 bytes: the data sheet's figure, and the power-on FIFO_SIZE_0 (0x6E) setting in
    /// InvenSense's Linux header for this register map (ICM-2064x: `BIT_FIFO_SIZE_512 0x00`,
    /// `BIT_FIFO_SIZE_1024 0x01`). Some parts hold more (the ICM20948_WE library measured 4096 B
    /// in snapshot mode); a count above 512 is then taken for an overflow, which costs a late
    /// drain's samples and never reads misaligned records.
    static let fifoBytes = 512
    /// How long each sensor's output is not yet valid after it wakes from sleep (data sheet
    /// DS-000189 tables 1 and 2: gyroscope start-up time 35 ms, accelerometer 20 ms).
    static let gyroscopeStartupNanoseconds: Int64 = 35_000_000
    static let accelerometerStartupNanoseconds: Int64 = 20_000_000

    /// Sample rates: 1.125 kHz / (1 + divider) for both sensors with their DLPF on. The data sheet
    /// prints 1.1 kHz for the gyroscope and 1.125 kHz for the accelerometer; InvenSense's own
    /// code and most libraries use 1125 for both, and one divider for both keeps a FIFO record's
    /// two samples from one instant.
    static let baseRateHz = 1125.0

    /// Accelerometer -3 dB corners for ACCEL_DLPFCFG 1...6 (data sheet table 18); GYRO_DLPFCFG
    /// 1...6 is 151.8, 119.5, 51.2, 23.9, 11.6, 5.7 Hz (table 16). 0 and 7 leave the divider
    /// without effect for the gyroscope.
    static let lowPassCorners: [Double] = [246.0, 111.4, 50.4, 23.9, 11.5, 5.7]
}

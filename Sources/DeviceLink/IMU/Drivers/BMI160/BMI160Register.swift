/// BMI160 registers (Bosch BMI160 data sheet BST-BMI160-DS000, section 2.11; Bosch SensorAPI
/// `bmi160_defs.h`; Linux drivers/iio/imu/bmi160/bmi160_core.c).
enum BMI160Register {
    static let chipID: UInt8 = 0x00
    static let pmuStatus: UInt8 = 0x03
    /// GYR_X_L: gyroscope 0x0C…0x11, then accelerometer 0x12…0x17, little-endian.
    static let gyroscopeXLow: UInt8 = 0x0C
    static let status: UInt8 = 0x1B
    static let interruptStatus1: UInt8 = 0x1D
    static let fifoLength: UInt8 = 0x22
    static let fifoData: UInt8 = 0x24
    static let accelerometerConfig: UInt8 = 0x40
    static let accelerometerRange: UInt8 = 0x41
    static let gyroscopeConfig: UInt8 = 0x42
    static let gyroscopeRange: UInt8 = 0x43
    static let fifoConfig0: UInt8 = 0x46
    static let fifoConfig1: UInt8 = 0x47
    static let command: UInt8 = 0x7E

    /// CMD values.
    static let softReset: UInt8 = 0xB6
    static let accelerometerNormal: UInt8 = 0x11
    static let accelerometerSuspend: UInt8 = 0x10
    static let gyroscopeNormal: UInt8 = 0x15
    static let gyroscopeSuspend: UInt8 = 0x14
    static let fifoFlush: UInt8 = 0xB0

    /// STATUS: drdy_acc; INT_STATUS_1: ffull_int.
    static let accelerometerDataReady: UInt8 = 0x80
    static let fifoFull: UInt8 = 0x20
    /// FIFO_CONFIG_1: fifo_gyr_en, fifo_acc_en (fifo_header_en clear: headerless frames).
    static let fifoGyroscope: UInt8 = 0x80
    static let fifoAccelerometer: UInt8 = 0x40
    /// ACC_CONF acc_bwp = 2 (normal filter), GYR_CONF gyr_bwp = 2.
    static let accelerometerNormalFilter: UInt8 = 0x20
    static let gyroscopeNormalFilter: UInt8 = 0x20

    static let fifoBytes = 1024
    /// A headerless frame with both sensors: gyroscope (6) then accelerometer (6).
    static let frameBytes = 12
    /// ODR codes shared by both sensors' CONF registers: 100 · 2^(code − 8) Hz, 25 Hz (6) to 1600 Hz (12).
    static let rateCodes: ClosedRange<UInt8> = 6...12
    static func rate(code: UInt8) -> Double { 100 * pow2(Int(code & 0x0F) - 8) }

    /// ACC_RANGE codes for ±2/4/8/16 g and counts per g.
    static let accelerometerRanges: [(code: UInt8, g: Float, lsb: Float)] = [(0x03, 2, 16384), (0x05, 4, 8192), (0x08, 8, 4096), (0x0C, 16, 2048)]
    /// GYR_RANGE codes for ±125…2000 °/s and counts per °/s.
    static let gyroscopeRanges: [(code: UInt8, dps: Float, lsb: Float)] = [(4, 125, 262.4), (3, 250, 131.2), (2, 500, 65.6), (1, 1000, 32.8), (0, 2000, 16.4)]

    static func pow2(_ exponent: Int) -> Double { exponent >= 0 ? Double(1 << exponent) : 1 / Double(1 << -exponent) }
}

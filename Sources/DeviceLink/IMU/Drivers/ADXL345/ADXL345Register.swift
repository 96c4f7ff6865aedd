/// ADXL345 / ADXL375 registers (ADXL345 data sheet Rev. G, table 19; ADXL375 Rev. B, table 20;
/// Linux drivers/iio/accel/adxl345_core.c).
enum ADXL345Register {
    static let deviceID: UInt8 = 0x00
    static let bandwidthRate: UInt8 = 0x2C
    static let powerControl: UInt8 = 0x2D
    static let interruptEnable: UInt8 = 0x2E
    static let interruptSource: UInt8 = 0x30
    static let dataFormat: UInt8 = 0x31
    static let dataX0: UInt8 = 0x32
    static let fifoControl: UInt8 = 0x38
    static let fifoStatus: UInt8 = 0x39

    /// POWER_CTL: Measure.
    static let measure: UInt8 = 0x08
    /// INT_SOURCE bits.
    static let dataReady: UInt8 = 0x80
    static let watermark: UInt8 = 0x02
    static let overrun: UInt8 = 0x01
    /// DATA_FORMAT: FULL_RES (3.9 mg/LSB at every range on the ADXL345).
    static let fullResolution: UInt8 = 0x08
    /// FIFO_CTL modes, bits 7:6.
    static let bypassMode: UInt8 = 0x00
    static let fifoMode: UInt8 = 0x40
    static let streamMode: UInt8 = 0x80
    /// Entries the FIFO holds.
    static let fifoEntries = 32
    /// BW_RATE rate codes 0x06...0x0F: 3200 Hz / 2^(15 - code).
    static let rateCodes: ClosedRange<UInt8> = 0x06...0x0F

    static func rate(code: UInt8) -> Double { 3200 / Double(1 << (15 - Int(code & 0x0F))) }
}

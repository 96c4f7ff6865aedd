/// The BMI160's output rates, full scales and filter corners (data sheet sections 2.4 and 2.11),
/// and the decoding of its little-endian samples.
enum BMI160Settings {
    struct Scale: Equatable {
        var range: Float
        var code: UInt8
        var lsbPerUnit: Float
    }

    struct Rate: Equatable {
        var hz: Double
        /// acc_odr / gyr_odr: 100 Hz · 2^(code − 8).
        var code: UInt8
        /// The accelerometer's -3 dB corner at acc_bwp = normal (data sheet 2.4.1.1: 40.5 Hz at
        /// 100 Hz; OSR4 divides it by four, "5.06 Hz at 50 Hz").
        var lowPassHz: Double
    }

    /// ACC_RANGE codes 0x03/0x05/0x08/0x0C with 16384/8192/4096/2048 LSB/g (kernel scales
    /// 598/1197/2394/4788 µm/s² per LSB).
    static let accelerometer: [Scale] = [
        Scale(range: 2, code: 0x03, lsbPerUnit: 16384),
        Scale(range: 4, code: 0x05, lsbPerUnit: 8192),
        Scale(range: 8, code: 0x08, lsbPerUnit: 4096),
        Scale(range: 16, code: 0x0C, lsbPerUnit: 2048),
    ]

    /// GYR_RANGE codes 4…0 with 262.4/131.2/65.6/32.8/16.4 LSB per °/s (kernel scales
    /// 66/133/266/532/1065 µrad/s per LSB).
    static let gyroscope: [Scale] = [
        Scale(range: 125, code: 4, lsbPerUnit: 262.4),
        Scale(range: 250, code: 3, lsbPerUnit: 131.2),
        Scale(range: 500, code: 2, lsbPerUnit: 65.6),
        Scale(range: 1000, code: 1, lsbPerUnit: 32.8),
        Scale(range: 2000, code: 0, lsbPerUnit: 16.4),
    ]

    /// The rates both sensors have (the accelerometer's ODR stops at 1600 Hz, the gyroscope's
    /// starts at 25 Hz): one code for both keeps every FIFO frame whole.
    static let rates: [Rate] = [
        Rate(hz: 25, code: 0x06, lowPassHz: 10.12),
        Rate(hz: 50, code: 0x07, lowPassHz: 20.25),
        Rate(hz: 100, code: 0x08, lowPassHz: 40.5),
        Rate(hz: 200, code: 0x09, lowPassHz: 80),
        Rate(hz: 400, code: 0x0A, lowPassHz: 162),
        Rate(hz: 800, code: 0x0B, lowPassHz: 324),
        Rate(hz: 1600, code: 0x0C, lowPassHz: 684),
    ]

    /// The nominal rate of an ODR code.
    static func hz(code: UInt8) -> Double {
        100 * pow2(Int(code & 0x0F) - 8)
    }

    private static func pow2(_ exponent: Int) -> Double {
        exponent >= 0 ? Double(1 << exponent) : 1 / Double(1 << -exponent)
    }

    /// The slowest shared rate at or above `hz`; nil above the fastest.
    static func rate(atLeast hz: Double) -> Rate? {
        rates.first { $0.hz >= hz }
    }

    /// The smallest full scale at or above `range`; nil when the chip has none that large.
    static func scale(atLeast range: Float, in scales: [Scale]) -> Scale? {
        scales.first { $0.range >= range }
    }

    /// The scale of a range code, as the chip reads it.
    static func scale(code: UInt8, in scales: [Scale]) -> Scale? {
        scales.first { $0.code == code }
    }

    /// Gyroscope x, y, z at `offset` and accelerometer x, y, z after it, little-endian: a
    /// headerless frame and the data registers alike.
    static func reading(_ bytes: UnsafeRawBufferPointer, at offset: Int, lsbPerG: Float, lsbPerDPS: Float) -> IMUReading {
        IMUReading(acceleration: vector(bytes, at: offset + 6) / lsbPerG, angularRate: vector(bytes, at: offset) / lsbPerDPS)
    }

    private static func vector(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> SIMD3<Float> {
        SIMD3(Float(ChipRegisters.littleEndian(bytes, at: offset)), Float(ChipRegisters.littleEndian(bytes, at: offset + 2)),
              Float(ChipRegisters.littleEndian(bytes, at: offset + 4)))
    }

    /// "0x7FF" for a log line.
    static func hex(_ value: Int) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}

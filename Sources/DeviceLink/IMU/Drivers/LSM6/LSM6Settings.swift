/// Output rates and full scales of the LSM6 family, from the data sheets (hardware.md section 2.2).
enum LSM6Settings {
    struct Scale: Equatable {
        var range: Float
        var code: UInt8
        var lsbPerUnit: Float
    }

    struct Rate: Equatable {
        var hz: Double
        var code: UInt8
    }

    /// CTRL1_XL FS_XL with the sensitivities 0.061/0.122/0.244/0.488 mg/LSB. The codes are not in
    /// range order: 01 is ±16 g.
    static let accelerometer: [Scale] = [
        Scale(range: 2, code: 0b00, lsbPerUnit: 1 / 0.061e-3),
        Scale(range: 4, code: 0b10, lsbPerUnit: 1 / 0.122e-3),
        Scale(range: 8, code: 0b11, lsbPerUnit: 1 / 0.244e-3),
        Scale(range: 16, code: 0b01, lsbPerUnit: 1 / 0.488e-3),
    ]

    /// CTRL2_G FS_G with 8.75/17.5/35/70 mdps/LSB. The smallest is ±245 °/s on the DS3/DSL data
    /// sheets and ±250 °/s on the DSO's, at the same sensitivity.
    static func gyroscope(smallest: Float) -> [Scale] {
        [
            Scale(range: smallest, code: 0b00, lsbPerUnit: 1 / 8.75e-3),
            Scale(range: 500, code: 0b01, lsbPerUnit: 1 / 17.5e-3),
            Scale(range: 1000, code: 0b10, lsbPerUnit: 1 / 35e-3),
            Scale(range: 2000, code: 0b11, lsbPerUnit: 1 / 70e-3),
        ]
    }

    /// ODR codes 1…10 of the DS3/DSL data sheets. The LSM6DS3's gyroscope stops at 1.66 kHz
    /// (its CTRL2_G table), and a FIFO pattern needs both sensors at one rate, so it stops there.
    static func untaggedRates(lsm6ds3: Bool) -> [Rate] {
        let all = [12.5, 26, 52, 104, 208, 416, 833, 1660, 3330, 6660]
        return all.enumerated().map { Rate(hz: $1, code: UInt8($0 + 1)) }.filter { !lsm6ds3 || $0.hz <= 1660 }
    }

    /// ODR and batch-rate codes 1…10 of the LSM6DSO data sheet (417, 1667, 3333, 6667 Hz).
    static let taggedRates: [Rate] = [12.5, 26, 52, 104, 208, 417, 833, 1667, 3333, 6667].enumerated().map {
        Rate(hz: $1, code: UInt8($0 + 1))
    }

    /// Samples corrupted while the digital filters settle after a sensor is switched on, per ODR:
    /// the kernel's st_lsm6dsx `samples_to_discard` for the LSM6DSL/DSM (commit db3c490503be,
    /// 2023), which has none for the DS3 (no part to test) or the DSO (its DRDY mask marks them).
    static let settlingSamples: [(hz: Double, accelerometer: Int, gyroscope: Int)] = [
        (12.5, 1, 2), (26, 1, 5), (52, 1, 7), (104, 2, 12), (208, 2, 20), (416, 2, 36),
    ]

    /// How long a sensor's output is corrupted after it is switched on at `hz`: the table's
    /// samples at the nearest rate at or below, in that rate's time (above 416 Hz, 416 Hz's).
    static func settlingNanoseconds(rateHz hz: Double, gyroscope: Bool) -> Int64 {
        let entry = settlingSamples.last { $0.hz <= hz * 1.01 } ?? settlingSamples[0]
        let samples = gyroscope ? entry.gyroscope : entry.accelerometer
        return Int64((Double(samples) / entry.hz * 1e9).rounded(.up))
    }

    /// The slowest rate at or above `hz`, the fastest when none is.
    static func rate(atLeast hz: Double, in rates: [Rate]) -> Rate {
        rates.first { $0.hz >= hz } ?? rates[rates.count - 1]
    }

    /// The smallest full scale at or above `range`; nil when the chip has none that large.
    static func scale(atLeast range: Float, in scales: [Scale]) -> Scale? {
        scales.first { $0.range >= range }
    }

    /// The option whose corner is nearest `wanted` on a log scale (corners are ratios of the ODR).
    static func nearest<Option>(_ options: [(hz: Double, option: Option)], to wanted: Double) -> (hz: Double, option: Option) {
        func distance(_ hz: Double) -> Double { max(hz / wanted, wanted / hz) }
        var best = options[0]
        for candidate in options.dropFirst() where distance(candidate.hz) < distance(best.hz) {
            best = candidate
        }
        return best
    }
}

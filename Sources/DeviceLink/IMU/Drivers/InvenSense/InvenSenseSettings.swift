#if canImport(Glibc)
import Glibc
#endif

/// What the InvenSense parts (MPU-6050/6500/9250 and ICM-20948) share: the four full-scale codes
/// and their sensitivities, the sample-rate divider, the FIFO record of accelerometer then
/// gyroscope (big-endian), and the Linux driver's rule for a FIFO about to overflow.
enum InvenSenseSettings {
    /// ± g for full-scale codes 0...3 and counts per g (MPU-6050 data sheet 6.2; kernel
    /// `accel_scale` 598/1196/2392/4785 µm/s² per LSB; ICM-20948 data sheet 3.2 the same).
    static let accelerometerRanges: [Float] = [2, 4, 8, 16]
    static let accelerometerLSBPerG: [Float] = [16384, 8192, 4096, 2048]
    /// ± °/s for codes 0...3 and counts per °/s (data sheet 6.1; kernel `gyro_scale_6050`).
    static let gyroscopeRanges: [Float] = [250, 500, 1000, 2000]
    static let gyroscopeLSBPerDPS: [Float] = [131, 65.5, 32.8, 16.4]

    /// Accelerometer X, Y, Z then gyroscope X, Y, Z, big-endian int16: a FIFO record with
    /// only those two sensors enabled, and the data registers less the temperature between them.
    static let recordBytes = 12

    /// The smallest full scale that holds `requested` (never a smaller range than asked).
    static func rangeCode(for requested: Float, in ranges: [Float], chip: String, setting: String) throws(IMUError) -> Int {
        guard let code = ranges.firstIndex(where: { $0 >= requested }) else {
            throw .unsupported(chip: chip, setting: setting, reason: "±\(requested) is beyond the largest range, ±\(ranges[ranges.count - 1])")
        }
        return code
    }

    /// The divider whose rate `baseHz / (1 + divider)` is nearest to `rateHz`.
    static func divider(for rateHz: Double, baseHz: Double, maximum: Int, chip: String) throws(IMUError) -> Int {
        guard rateHz > 0, rateHz <= baseHz * 1.0001 else {
            throw .unsupported(chip: chip, setting: "rate", reason: "\(rateHz) Hz is outside 0 to \(baseHz) Hz")
        }
        // Clamped while still a Double: a rate of 1e-300 Hz would make the quotient too large for Int.
        let exact = min(Double(maximum), max(0, baseHz / rateHz - 1))
        let low = Int(exact.rounded(.down))
        let high = min(maximum, low + 1)
        let lowError = abs(baseHz / Double(1 + low) - rateHz)
        let highError = abs(baseHz / Double(1 + high) - rateHz)
        return highError < lowError ? high : low
    }

    /// The index of the corner nearest to `wanted` on a log scale (a factor off either way
    /// counts the same).
    static func nearest(_ corners: [Double], to wanted: Double) -> Int {
        let target = log2(max(wanted, 0.001))
        var best = 0
        for index in corners.indices where abs(log2(corners[index]) - target) < abs(log2(corners[best]) - target) {
            best = index
        }
        return best
    }

    /// A FIFO count at or above this is treated as an overflow: the Linux driver resets when only
    /// three records are free, since records keep arriving between reading the count and the
    /// data (`inv_mpu6050_read_fifo`, drivers/iio/imu/inv_mpu6050/inv_mpu_ring.c).
    static func overflowThreshold(fifoBytes: Int) -> Int { fifoBytes - 3 * recordBytes }

    /// Whole records a drain accepts, the capacity the streamer plans with.
    static func usableRecords(fifoBytes: Int) -> Int { (overflowThreshold(fifoBytes: fifoBytes) - 1) / recordBytes }

    /// One reading from accelerometer bytes at `offset` and gyroscope bytes at `gyroOffset`.
    static func reading(_ bytes: UnsafeRawBufferPointer, at offset: Int, gyroOffset: Int, lsbPerG: Float, lsbPerDPS: Float) -> IMUReading {
        let accel = SIMD3<Float>(Float(ChipRegisters.bigEndian(bytes, at: offset)), Float(ChipRegisters.bigEndian(bytes, at: offset + 2)),
                                 Float(ChipRegisters.bigEndian(bytes, at: offset + 4)))
        let gyro = SIMD3<Float>(Float(ChipRegisters.bigEndian(bytes, at: gyroOffset)), Float(ChipRegisters.bigEndian(bytes, at: gyroOffset + 2)),
                                Float(ChipRegisters.bigEndian(bytes, at: gyroOffset + 4)))
        return IMUReading(acceleration: accel / lsbPerG, angularRate: gyro / lsbPerDPS)
    }

    /// "0x1FFF" for a log line.
    static func hex(_ value: Int) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}

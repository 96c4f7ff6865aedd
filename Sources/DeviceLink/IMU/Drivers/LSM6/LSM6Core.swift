/// What both LSM6 drivers do alike: the soft reset, the control registers and the polled read of
/// the data registers.
struct LSM6Core {
    let model: IMUModel
    let registers: ChipRegisters
    let clock: any IMUClock

    /// Checks the identity before writing (another chip at this address must not get a reset
    /// bit), sets SW_RESET and waits for it to clear itself, then sets BDU (a sample's low and
    /// high bytes belong together) and IF_INC (multi-byte reads).
    func reset() throws(IMUError) {
        try registers.checkIdentity(of: model)
        try registers.write(LSM6Register.ctrl3C, LSM6Register.swReset)
        // The data sheets give about 50 µs; the kernel (st_lsm6dsx_reset_device) waits 50–100 µs.
        var cleared = false
        for _ in 0..<10 {
            clock.sleep(nanoseconds: 100_000)
            if try registers.read(LSM6Register.ctrl3C) & LSM6Register.swReset == 0 {
                cleared = true
                break
            }
        }
        guard cleared else {
            throw .notReady(chip: model.name, bus: registers.bus.name, address: registers.address, detail: "did not finish its soft reset (CTRL3_C SW_RESET stayed set)")
        }
        try registers.write(LSM6Register.ctrl3C, LSM6Register.bdu | LSM6Register.ifInc)
        try registers.checkIdentity(of: model)
    }

    /// Writes the full scales with the ODR bits 0: the chip stays powered down until `start`.
    func writeControl(accelerometer: LSM6Settings.Scale, accelerometerFilterBits: UInt8, gyroscope: LSM6Settings.Scale, rateCode: UInt8) throws(IMUError) {
        try registers.write(LSM6Register.ctrl1XL, rateCode << 4 | accelerometer.code << 2 | accelerometerFilterBits)
        try registers.write(LSM6Register.ctrl2G, rateCode << 4 | gyroscope.code << 2)
    }

    /// One sample from the data registers when XLDA says the accelerometer has a new one (the
    /// gyroscope runs at the same rate); nothing otherwise.
    func readPolled(into readings: inout [IMUReading], configuration: IMUConfiguration) throws(IMUError) -> IMUDrainReport {
        let status = try registers.read(LSM6Register.status)
        guard status & LSM6Register.accelerometerReady != 0 else { return IMUDrainReport(count: 0) }
        let bytes = try registers.read(LSM6Register.outGyroX, count: 12)
        bytes.withUnsafeBytes { raw in
            readings.append(Self.reading(raw, gyroscopeAt: 0, accelerometerAt: 6, configuration: configuration))
        }
        return IMUDrainReport(count: 1)
    }

    /// Three little-endian words of each sensor, scaled at the configured ranges.
    static func reading(_ bytes: UnsafeRawBufferPointer, gyroscopeAt gyro: Int, accelerometerAt accel: Int, configuration: IMUConfiguration) -> IMUReading {
        IMUReading(acceleration: vector(bytes, at: accel, lsbPerUnit: configuration.accelerometerLSBPerG),
                   angularRate: vector(bytes, at: gyro, lsbPerUnit: configuration.gyroscopeLSBPerDPS))
    }

    static func vector(_ bytes: UnsafeRawBufferPointer, at offset: Int, lsbPerUnit: Float) -> SIMD3<Float> {
        SIMD3(Float(ChipRegisters.littleEndian(bytes, at: offset)),
              Float(ChipRegisters.littleEndian(bytes, at: offset + 2)),
              Float(ChipRegisters.littleEndian(bytes, at: offset + 4))) / lsbPerUnit
    }

    func notConfigured(_ step: String) -> IMUError {
        .notReady(chip: model.name, bus: registers.bus.name, address: registers.address, detail: "\(step) before configure")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return "0x" + (digits.count == 1 ? "0" + digits : digits)
        }.joined(separator: " ")
    }
}

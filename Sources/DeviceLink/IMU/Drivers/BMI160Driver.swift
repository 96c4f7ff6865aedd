/// Bosch BMI160: accelerometer and gyroscope with a 1 KB FIFO of headerless frames (gyroscope
/// then accelerometer, little-endian). It powers up with both sensors suspended and starts them
/// by command; registers written while suspended need 450 µs between writes (data sheet 3.2.4).
public final class BMI160Driver: IMUDriver {
    private typealias R = BMI160Register

    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: BMI160Register.fifoBytes, alignment: 2)

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
    }

    deinit { buffer.deallocate() }

    public func reset() throws(IMUError) {
        configuration = nil
        try registers.checkIdentity(of: model)
        try registers.write(R.command, R.softReset)
        // The kernel waits BMI160_SOFTRESET_USLEEP (1 ms).
        clock.sleep(nanoseconds: 1_000_000)
        try registers.checkIdentity(of: model)
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.rateHz > 0, request.rateHz <= 1600 * 1.0001 else {
            throw .unsupported(chip: model.name, setting: "rate", reason: "\(request.rateHz) Hz is outside 25 to 1600 Hz")
        }
        let code = R.rateCodes.first { R.rate(code: $0) >= request.rateHz * 0.9999 } ?? R.rateCodes.upperBound
        let rate = R.rate(code: code)
        guard let accel = R.accelerometerRanges.first(where: { $0.g >= request.accelerometerRange }) else {
            throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is beyond ±16 g")
        }
        guard let gyro = R.gyroscopeRanges.first(where: { $0.dps >= request.gyroscopeRange }) else {
            throw .unsupported(chip: model.name, setting: "gyroscope range", reason: "±\(request.gyroscopeRange) °/s is beyond ±2000 °/s")
        }
        let capacity = request.useFIFO ? R.fifoBytes / R.frameBytes - 1 : 0
        let watermark = request.useFIFO ? request.watermark(capacity: capacity, rate: rate) : 1
        // The chip may still be suspended: 450 µs between writes.
        for (register, value) in [
            (R.accelerometerConfig, R.accelerometerNormalFilter | code), (R.accelerometerRange, accel.code),
            (R.gyroscopeConfig, R.gyroscopeNormalFilter | code), (R.gyroscopeRange, gyro.code),
            // FIFO_CONFIG_0 counts the watermark in 4-byte units.
            (R.fifoConfig0, UInt8(min(255, watermark * R.frameBytes / 4))),
            (R.fifoConfig1, request.useFIFO ? R.fifoGyroscope | R.fifoAccelerometer : 0),
        ] {
            try registers.write(register, value)
            clock.sleep(nanoseconds: 450_000)
        }
        // Normal filter mode: a 3 dB corner of about 0.4 × ODR (data sheet tables 9 and 11).
        let chosen = IMUConfiguration(
            model: model.name, rateHz: rate, accelerometerRange: accel.g, gyroscopeRange: gyro.dps, accelerometerLSBPerG: accel.lsb,
            gyroscopeLSBPerDPS: gyro.lsb, lowPassHz: rate * 0.4, fifoCapacity: capacity, watermark: watermark)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw notConfigured("started") }
        try registers.write(R.command, R.accelerometerNormal)
        // Accelerometer start-up 3.8 ms, gyroscope 80 ms (data sheet table 3).
        clock.sleep(nanoseconds: 4_000_000)
        try registers.write(R.command, R.gyroscopeNormal)
        clock.sleep(nanoseconds: 80_000_000)
        if configuration.usesFIFO { try flush() }
        _ = try registers.read(R.interruptStatus1)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw notConfigured("drained") }
        guard configuration.usesFIFO else {
            guard try registers.read(R.status) & R.accelerometerDataReady != 0 else { return IMUDrainReport(count: 0) }
            let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<12])
            try registers.read(R.gyroscopeXLow, into: data)
            readings.append(Self.reading(UnsafeRawBufferPointer(data), at: 0, configuration))
            return IMUDrainReport(count: 1)
        }
        let status = try registers.read(R.interruptStatus1)
        let lengthBytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<2])
        try registers.read(R.fifoLength, into: lengthBytes)
        let count = Int(lengthBytes[0]) | Int(lengthBytes[1] & 0x07) << 8
        if count > R.fifoBytes {
            try flush()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO length \(count) exceeds \(R.fifoBytes) bytes")
        }
        if status & R.fifoFull != 0 || count > R.fifoBytes - R.frameBytes {
            try flush()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO full (\(count) of \(R.fifoBytes) bytes)")
        }
        let frames = count / R.frameBytes
        if frames > 0 {
            // FIFO_DATA does not auto-increment: one read streams every whole frame.
            let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(frames * R.frameBytes)])
            try registers.read(R.fifoData, into: data)
            readings.reserveCapacity(readings.count + frames)
            for index in 0..<frames { readings.append(Self.reading(UnsafeRawBufferPointer(data), at: index * R.frameBytes, configuration)) }
        }
        return IMUDrainReport(count: frames, partialBytes: count - frames * R.frameBytes)
    }

    public func stop() throws(IMUError) {
        try registers.write(R.command, R.accelerometerSuspend)
        clock.sleep(nanoseconds: 450_000)
        try registers.write(R.command, R.gyroscopeSuspend)
    }

    /// Gyroscope then accelerometer, little-endian, as both the data registers and a headerless
    /// frame hold them.
    static func reading(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ configuration: IMUConfiguration) -> IMUReading {
        func axes(_ start: Int) -> SIMD3<Float> {
            SIMD3(Float(ChipRegisters.littleEndian(bytes, at: start)), Float(ChipRegisters.littleEndian(bytes, at: start + 2)),
                  Float(ChipRegisters.littleEndian(bytes, at: start + 4)))
        }
        return IMUReading(acceleration: axes(offset + 6) / configuration.accelerometerLSBPerG, angularRate: axes(offset) / configuration.gyroscopeLSBPerDPS)
    }

    private func flush() throws(IMUError) {
        try registers.write(R.command, R.fifoFlush)
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

/// Bosch BMI160: accelerometer and gyroscope at one ODR, read through the 1 KB FIFO in headerless
/// frames of gyroscope then accelerometer, or polled on STATUS drdy_acc. It follows the Bosch
/// SensorAPI (bmi160.c) and the kernel driver (drivers/iio/imu/bmi160/bmi160_core.c): soft reset
/// through CMD, sensors woken by CMD into normal mode, spaced writes while they are suspended.
public final class BMI160Driver: IMUDriver {
    private typealias R = BMI160Register

    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    /// Both sensors suspended (after power-on, reset and stop, and until we know otherwise): the
    /// chip then needs 450 µs between write accesses (data sheet 3.2.4; the SensorAPI writes
    /// byte by byte with a delay unless a sensor is in normal mode).
    private var suspended = true
    /// Set by `configure`, written by `start`.
    private var fifoConfig: UInt8 = 0
    /// One buffer for every drain: a FIFO's worth of bytes, never reallocated on the hot path.
    private let buffer: UnsafeMutableRawBufferPointer

    /// A length at or above this is treated as an overflow: the FIFO holds 85 whole frames
    /// (1020 bytes) and drops the oldest for the next, so at 1012 the next frame may already have
    /// cost one (frames arrive between reading the length and the data).
    static let overflowThreshold = R.fifoBytes - R.frameBytes
    /// Whole frames a drain accepts, the capacity the streamer plans with.
    static let usableFrames = (overflowThreshold - 1) / R.frameBytes

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
        buffer = .allocate(byteCount: R.fifoBytes, alignment: 2)
    }

    deinit { buffer.deallocate() }

    public func reset() throws(IMUError) {
        configuration = nil
        // Identity first: a different chip answering here must not get a reset command.
        try registers.checkIdentity(of: model)
        suspended = true
        try write(R.command, R.softReset)
        // The SensorAPI waits BMI160_SOFT_RESET_DELAY_MS (1 ms); the kernel waits 1 ms too.
        clock.sleep(nanoseconds: 1_000_000)
        try registers.checkIdentity(of: model)
        // A reset leaves both sensors suspended; anything else means the command was lost.
        let power = try registers.read(R.pmuStatus)
        guard power & (R.accelPMUMask | R.gyroPMUMask) == 0 else {
            throw .notReady(chip: model.name, bus: bus.name, address: address, detail: "is still running after its soft reset (PMU_STATUS = \(BMI160Settings.hex(Int(power))))")
        }
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.rateHz.isFinite, request.rateHz > 0, let rate = BMI160Settings.rate(atLeast: request.rateHz) else {
            throw .unsupported(chip: model.name, setting: "rate", reason: "\(request.rateHz) Hz is outside 0 to 1600 Hz (the fastest rate both sensors share)")
        }
        guard let accelerometer = BMI160Settings.scale(atLeast: request.accelerometerRange, in: BMI160Settings.accelerometer) else {
            throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is above its ±16 g")
        }
        guard let gyroscope = BMI160Settings.scale(atLeast: request.gyroscopeRange, in: BMI160Settings.gyroscope) else {
            throw .unsupported(chip: model.name, setting: "gyroscope range", reason: "±\(request.gyroscopeRange) °/s is above its ±2000 °/s")
        }
        // The filter stays in normal mode (corner about 0.4 × ODR): the oversampling modes would
        // put it at a quarter or half of that, below what an impact needs at low rates.
        try write(R.fifoConfig1, 0)
        try write(R.accelConfig, R.normalBandwidth | rate.code)
        try write(R.accelRange, accelerometer.code)
        try write(R.gyroConfig, R.normalBandwidth | rate.code)
        try write(R.gyroRange, gyroscope.code)

        var capacity = 0
        var watermark = 1
        if request.useFIFO {
            capacity = Self.usableFrames
            watermark = request.watermark(capacity: capacity, rate: rate.hz)
            try write(R.fifoConfig0, UInt8(min(255, watermark * R.frameBytes / 4)))
            // FIFO full raises INT_STATUS_1 only while enabled.
            try write(R.intEnable1, R.fifoFull)
            // Headerless: every frame is the same 12 bytes, so a drain is one read and a count.
            fifoConfig = R.fifoGyro | R.fifoAccel
        } else {
            try write(R.intEnable1, 0)
            fifoConfig = 0
        }
        let chosen = IMUConfiguration(
            model: model.name, rateHz: rate.hz, accelerometerRange: accelerometer.range, gyroscopeRange: gyroscope.range,
            accelerometerLSBPerG: accelerometer.lsbPerUnit, gyroscopeLSBPerDPS: gyroscope.lsbPerUnit, lowPassHz: rate.lowPassHz,
            fifoCapacity: capacity, watermark: watermark)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw notConfigured("started") }
        try write(R.command, R.accelNormal)
        // Accelerometer start-up 3.8 ms (data sheet table 3); from here writes need no spacing.
        clock.sleep(nanoseconds: 4_000_000)
        suspended = false
        try write(R.command, R.gyroNormal)
        // Gyroscope start-up from suspend: 80 ms (data sheet table 4; kernel BMI160 gyro delay).
        clock.sleep(nanoseconds: 80_000_000)
        let power = try registers.read(R.pmuStatus)
        guard power & R.accelPMUMask == R.accelPMUNormal, power & R.gyroPMUMask == R.gyroPMUNormal else {
            throw .notReady(chip: model.name, bus: bus.name, address: address, detail: "did not enter normal mode (PMU_STATUS = \(BMI160Settings.hex(Int(power))))")
        }
        if configuration.usesFIFO {
            try write(R.fifoConfig1, fifoConfig)
            try write(R.command, R.fifoFlush)
        }
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw notConfigured("drained") }
        guard configuration.usesFIFO else { return try drainDataRegisters(into: &readings, configuration) }

        // INT_STATUS_1 through FIFO_LENGTH_1 (0x1D…0x23) in one read: the full flag and the count.
        let head = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<7])
        // The time is taken before the read: the thread may be held up any time after the chip answers.
        let countedAt = clock.nowNanoseconds()
        try registers.read(R.intStatus1, into: head)
        // And after: frames that arrive from here to the check below surely came after the count.
        let answeredAt = clock.nowNanoseconds()
        let status = head[0]
        let length = Int(head[5]) | Int(head[6] & 0x07) << 8
        if length > R.fifoBytes {
            try flushFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO length \(BMI160Settings.hex(length)) exceeds \(R.fifoBytes) bytes")
        }
        // Full: the chip drops its oldest frames for new ones, so samples were lost (or are about
        // to be, between this read and the data's).
        if status & R.fifoFull != 0 || length >= Self.overflowThreshold {
            try flushFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overflow (\(length) of \(R.fifoBytes) bytes)")
        }

        let frame = R.frameBytes
        let frames = length / frame
        if frames > 0 {
            // FIFO_DATA does not auto-increment: one read takes every whole frame.
            let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(frames * frame)])
            try registers.read(R.fifoData, into: data)
            if try lostDuringDrain(length: length, bytesRead: data.count, countedAt: countedAt, answeredAt: answeredAt, configuration: configuration) {
                try flushFIFO()
                return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overflow while \(data.count) bytes were read")
            }
            let bytes = UnsafeRawBufferPointer(data)
            readings.reserveCapacity(readings.count + frames)
            for index in 0..<frames {
                readings.append(BMI160Settings.reading(bytes, at: index * frame, lsbPerG: configuration.accelerometerLSBPerG,
                                                       lsbPerDPS: configuration.gyroscopeLSBPerDPS))
            }
        }
        return IMUDrainReport(count: frames, partialBytes: length - frames * frame)
    }

    /// A full FIFO drops its oldest whole frames, so the frames read stay aligned; but if that
    /// happened after the length was read, they are not those counted: they follow a gap and are
    /// later than their place in the stream says. ffull_int is no help afterwards (INT_LATCH is
    /// left non-latched, so it cleared as frames were read). Without a loss, the bytes left plus
    /// those read are the length plus every frame that came since, so a loss shows as fewer than
    /// surely came: at 0.9 of the rate (a slow chip) from the length's answer to this read, less
    /// one, and more than a frame short. Fullness alone would not do: a long read of a nearly
    /// full FIFO is emptying it while frames come. A hold-up inside the length's read (after the
    /// chip answered) cannot be told this way; the chip's own time would be needed.
    /// The length is read again only when the frames that could have come since the count (at
    /// the rate with a quarter more for a fast chip, and one landing at once) overfill the FIFO,
    /// so a usual drain, and a full one of `usableFrames`, stays at two transfers.
    private func lostDuringDrain(length: Int, bytesRead: Int, countedAt: Int64, answeredAt: Int64, configuration: IMUConfiguration) throws(IMUError) -> Bool {
        let frame = Double(R.frameBytes)
        let arrivals = FIFOArrivals(rateHz: configuration.rateHz)
        let most = (arrivals.most(from: countedAt, to: clock.nowNanoseconds()) + 1) * frame
        guard Double(length) + most > Double(R.fifoBytes) else { return false }
        // Not the drain's buffer: it holds the frames.
        let checkedAt = clock.nowNanoseconds()
        let head = try registers.read(R.intStatus1, count: 7)
        let left = Int(head[5]) | Int(head[6] & 0x07) << 8
        let surely = arrivals.surely(from: answeredAt, to: checkedAt) * frame
        return Double(length) + surely - Double(left + bytesRead) > frame
    }

    public func stop() throws(IMUError) {
        try write(R.fifoConfig1, 0)
        try write(R.command, R.accelSuspend)
        // The gyroscope is still in normal mode, so this write needs no spacing; after it, all do.
        try write(R.command, R.gyroSuspend)
        suspended = true
    }

    /// Polled: STATUS drdy_acc (the gyroscope runs at the same ODR), then gyroscope and
    /// accelerometer in one 12-byte read, which clears drdy_acc.
    private func drainDataRegisters(into readings: inout [IMUReading], _ configuration: IMUConfiguration) throws(IMUError) -> IMUDrainReport {
        guard try registers.read(R.status) & R.accelReady != 0 else { return IMUDrainReport(count: 0) }
        let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<12])
        try registers.read(R.gyroXLow, into: data)
        readings.append(BMI160Settings.reading(UnsafeRawBufferPointer(data), at: 0, lsbPerG: configuration.accelerometerLSBPerG,
                                               lsbPerDPS: configuration.gyroscopeLSBPerDPS))
        return IMUDrainReport(count: 1)
    }

    /// FIFO_FLUSH empties the FIFO (and with it the full flag); the configuration stays.
    private func flushFIFO() throws(IMUError) {
        try write(R.command, R.fifoFlush)
    }

    /// A register write, 450 µs after the previous access while both sensors are suspended.
    private func write(_ register: UInt8, _ value: UInt8) throws(IMUError) {
        if suspended { clock.sleep(nanoseconds: 450_000) }
        try registers.write(register, value)
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

/// A BMI160 at register level, after the data sheet's register map: both sensors suspended at
/// power-on (PMU_STATUS 0) with no data until CMD puts one in normal mode, CMD's soft reset,
/// normal-mode and FIFO-flush commands, writes less than 450 µs apart ignored while both sensors
/// are suspended, range codes that change the counts, data registers (gyroscope then
/// accelerometer, little-endian) holding the newest sample with STATUS drdy bits cleared by
/// reading them, and a 1024-byte FIFO fed at the accelerometer's ODR with frames of the
/// FIFO_CONFIG_1 sensors (a header byte first when fifo_header_en is set). FIFO_DATA does not
/// auto-increment; a full FIFO drops its oldest whole frames for new ones and shows ffull_int in
/// INT_STATUS_1 (while INT_EN_1 enables it).
public final class SimulatedBMI160: SimulatedRegisterChip {
    private typealias R = BMI160Register

    public let model: IMUModel
    /// The next FIFO count read returns garbage (a corrupted transfer), once.
    public var corruptNextFIFOCount = false
    public private(set) var fifo: SimulatedFIFO
    /// Writes the chip dropped because they came less than 450 µs after the previous one while
    /// both sensors were suspended.
    public private(set) var ignoredWrites = 0
    private var schedule: SampleSchedule?
    private var lastWriteNanoseconds: Int64?

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        fifo = SimulatedFIFO(capacity: R.fifoBytes)
        // Reset values (data sheet 2.11): 100 Hz with acc_bwp/gyr_bwp normal, ±2 g, ±2000 °/s,
        // watermark 0x80, FIFO headers on and no sensor in the FIFO.
        super.init(powerOn: [
            R.chipID: model.identityValues[0],
            R.accelConfig: 0x28, R.accelRange: 0x03, R.gyroConfig: 0x28, R.gyroRange: 0x00,
            R.fifoConfig0: 0x80, R.fifoConfig1: R.fifoHeader,
        ], motion: motion, clock: clock, rateFactor: rateFactor)
    }

    public override func powerCycle() {
        super.powerCycle()
        restart()
    }

    public var isAccelerometerNormal: Bool { registers[Int(R.pmuStatus)] & R.accelPMUMask == R.accelPMUNormal }
    public var isGyroscopeNormal: Bool { registers[Int(R.pmuStatus)] & R.gyroPMUMask == R.gyroPMUNormal }
    /// Measuring: some sensor in normal mode.
    public var isMeasuring: Bool { isAccelerometerNormal || isGyroscopeNormal }

    /// The nominal output rate: the accelerometer's ODR when it runs, else the gyroscope's.
    public var outputRateHz: Double {
        BMI160Settings.hz(code: registers[Int(isAccelerometerNormal ? R.accelConfig : R.gyroConfig)])
    }

    /// When the running schedule's first sample period began, for tests that line up with it.
    public var sampleStartNanoseconds: Int64? { schedule?.startNanoseconds }

    private var accelerometerScale: BMI160Settings.Scale {
        BMI160Settings.scale(code: registers[Int(R.accelRange)] & 0x0F, in: BMI160Settings.accelerometer) ?? BMI160Settings.accelerometer[0]
    }

    private var gyroscopeScale: BMI160Settings.Scale {
        BMI160Settings.scale(code: registers[Int(R.gyroRange)] & 0x07, in: BMI160Settings.gyroscope) ?? BMI160Settings.gyroscope[4]
    }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let frameLength = fifoFrameLength
        if frameLength > 0 {
            // Only a FIFO's worth of frames (and two more, so it still overflows) can matter.
            let window = fifo.capacity / frameLength + 2
            let first = max(schedule.produced, due - window)
            for index in first..<due { push(frame(motion.reading(atSeconds: schedule.seconds(of: index)))) }
        }
        let newest = sampleBytes(motion.reading(atSeconds: schedule.seconds(of: due - 1)))
        for (offset, byte) in newest.enumerated() { registers[Int(R.gyroXLow) + offset] = byte }
        registers[Int(R.status)] |= (isAccelerometerNormal ? R.accelReady : 0) | (isGyroscopeNormal ? R.gyroReady : 0)
        schedule.produced = due
        self.schedule = schedule
    }

    public override func readByte(at register: UInt8) -> UInt8 {
        switch register {
        case R.fifoLength0, R.fifoLength1:
            if corruptNextFIFOCount { return 0xFF }
            return register == R.fifoLength0 ? UInt8(fifo.count & 0xFF) : UInt8(fifo.count >> 8)
        case R.fifoData:
            // Past the end the chip returns the over-read marker 0x80 (data sheet 2.5.4).
            return fifo.pop(empty: 0x80)
        case R.intStatus1:
            // Non-latched (INT_LATCH 0): ffull_int shows while the FIFO has no room for a frame.
            let frameLength = fifoFrameLength
            let full = frameLength > 0 && fifo.count + frameLength > fifo.capacity && registers[Int(R.intEnable1)] & R.fifoFull != 0
            return registers[Int(register)] | (full ? R.fifoFull : 0)
        default:
            return registers[Int(register)]
        }
    }

    public override func register(after register: UInt8) -> UInt8 {
        register == R.fifoData ? register : register &+ 1
    }

    public override func didRead(from register: UInt8, count: Int) {
        guard register != R.fifoData else { return }
        let span = Int(register)..<(Int(register) + count)
        // drdy_acc and drdy_gyr clear when a byte of that sensor's data is read.
        if span.overlaps(Int(R.accelXLow)..<(Int(R.accelXLow) + 6)) { registers[Int(R.status)] &= ~R.accelReady }
        if span.overlaps(Int(R.gyroXLow)..<(Int(R.gyroXLow) + 6)) { registers[Int(R.status)] &= ~R.gyroReady }
        if span.contains(Int(R.fifoLength0)) || span.contains(Int(R.fifoLength1)) { corruptNextFIFOCount = false }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        let now = clock.nowNanoseconds()
        defer { lastWriteNanoseconds = now }
        if !isMeasuring, let last = lastWriteNanoseconds, now - last < 450_000 {
            ignoredWrites += 1
            return
        }
        switch register {
        case R.command:
            command(value)
        case ..<R.accelConfig:
            return // identity, status, data and FIFO registers are read-only
        default:
            registers[Int(register)] = value
        }
        refreshSchedule()
    }

    private func command(_ value: UInt8) {
        var power = registers[Int(R.pmuStatus)]
        switch value {
        case R.softReset:
            loadPowerOnValues()
            restart()
            return
        case R.fifoFlush:
            fifo.reset()
        case 0x10...0x12:
            // acc_pmu: suspend, normal, low power.
            power = power & ~R.accelPMUMask | (value & 0x03) << 4
        case 0x14, 0x15, 0x17:
            // gyr_pmu: suspend, normal, fast start-up.
            power = power & ~R.gyroPMUMask | (value & 0x03) << 2
        default:
            break
        }
        registers[Int(R.pmuStatus)] = power
    }

    /// After a reset or power cycle: empty FIFO, no schedule, no data.
    private func restart() {
        fifo.reset()
        schedule = nil
        refreshSchedule()
    }

    /// Restarts the schedule when measuring starts or the rate changes; samples exist only after.
    private func refreshSchedule() {
        guard isMeasuring else {
            schedule = nil
            return
        }
        let rate = outputRateHz * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }

    /// Bytes per FIFO frame for FIFO_CONFIG_1: header, gyroscope, accelerometer; 0 with no sensor.
    private var fifoFrameLength: Int {
        let config = registers[Int(R.fifoConfig1)]
        var length = 0
        if config & R.fifoGyro != 0 { length += 6 }
        if config & R.fifoAccel != 0 { length += 6 }
        if length > 0, config & R.fifoHeader != 0 { length += 1 }
        return length
    }

    /// Appends a frame, first dropping whole frames from the front until it fits (a front frame
    /// partly read counts as the bytes left of it).
    private func push(_ frame: [UInt8]) {
        while fifo.count + frame.count > fifo.capacity {
            let front = fifo.count % frame.count == 0 ? frame.count : fifo.count % frame.count
            for _ in 0..<front { _ = fifo.pop() }
        }
        fifo.push(frame)
    }

    /// The data registers' bytes for a sample: gyroscope then accelerometer, little-endian.
    private func sampleBytes(_ reading: IMUReading) -> [UInt8] {
        let accelerometer = accelerometerScale
        let gyroscope = gyroscopeScale
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        for axis in 0..<3 {
            bytes += Self.littleEndian(Self.counts(reading.angularRate[axis], lsbPerUnit: gyroscope.lsbPerUnit, range: gyroscope.range))
        }
        for axis in 0..<3 {
            bytes += Self.littleEndian(Self.counts(reading.acceleration[axis], lsbPerUnit: accelerometer.lsbPerUnit, range: accelerometer.range))
        }
        return bytes
    }

    /// A FIFO frame: the regular-frame header (0b10 with fh_parm gyr bit 3, acc bit 2) when
    /// headers are on, then the enabled sensors, gyroscope first.
    private func frame(_ reading: IMUReading) -> [UInt8] {
        let config = registers[Int(R.fifoConfig1)]
        let sample = sampleBytes(reading)
        var frame: [UInt8] = []
        if config & R.fifoHeader != 0 {
            frame.append(0x80 | (config & R.fifoGyro != 0 ? 0x08 : 0) | (config & R.fifoAccel != 0 ? 0x04 : 0))
        }
        if config & R.fifoGyro != 0 { frame += sample[0..<6] }
        if config & R.fifoAccel != 0 { frame += sample[6..<12] }
        return frame
    }
}

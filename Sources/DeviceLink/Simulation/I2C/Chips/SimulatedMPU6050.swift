/// An MPU-6050 (`.mpu6050`) or MPU-6500/9250/9255 or clone (`.mpu6500`) at register level, after
/// the register maps: power-on values (the 6050 asleep; the 6500's PWR_MGMT_1 is 0x01), H_RESET,
/// SMPLRT_DIV at 1 or 8 kHz by DLPF_CFG, full-scale bits that change the counts, data registers
/// holding the newest sample, and a FIFO (1024 or 512 bytes) fed with the FIFO_EN sensors in
/// register order. FIFO_R_W does not auto-increment; a full FIFO drops its oldest bytes, not
/// whole records, so an overflowed FIFO reads misaligned (the 6500 keeps the oldest instead when
/// CONFIG's FIFO_MODE is set). INT_STATUS clears when read.
public final class SimulatedMPU6050: SimulatedRegisterChip {
    private typealias R = MPU6050Register

    public let model: IMUModel
    /// The next FIFO count read returns garbage (a corrupted transfer), once.
    public var corruptNextFIFOCount = false
    public private(set) var fifo: SimulatedFIFO
    private var schedule: SampleSchedule?
    /// What FIFO_R_W returns when the FIFO is empty: the last byte read from it.
    private var lastFIFOByte: UInt8 = 0

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        fifo = SimulatedFIFO(capacity: R.fifoBytes(model.family))
        super.init(powerOn: [
            R.whoAmI: model.identityValues[0],
            // MPU-6050 register map 3: PWR_MGMT_1 resets to 0x40 (sleep); MPU-6500 register map 3: 0x01.
            R.powerManagement1: model.family == .mpu6050 ? R.sleep : R.clockPLL,
        ], motion: motion, clock: clock, rateFactor: rateFactor)
        refreshSchedule()
    }

    public override func powerCycle() {
        super.powerCycle()
        restart()
    }

    /// Measuring: awake with some axis out of standby.
    public var isMeasuring: Bool {
        registers[Int(R.powerManagement1)] & R.sleep == 0 && registers[Int(R.powerManagement2)] & R.standbyAll != R.standbyAll
    }

    /// The nominal output rate: 1 kHz with DLPF_CFG 1...6, 8 kHz with the DLPF off, over 1 + SMPLRT_DIV.
    public var outputRateHz: Double {
        let dlpf = registers[Int(R.config)] & 0x07
        let internalRate: Double = dlpf == 0 || dlpf == 7 ? 8000 : 1000
        return internalRate / Double(1 + Int(registers[Int(R.sampleRateDivider)]))
    }

    var accelerometerCode: Int { Int(registers[Int(R.accelConfig)] >> 3) & 0x03 }
    var gyroscopeCode: Int { Int(registers[Int(R.gyroConfig)] >> 3) & 0x03 }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let recordLength = fifoRecordLength
        if recordLength > 0 {
            // Only a FIFO's worth of records (and two more, so it still overflows) can matter.
            let window = fifo.capacity / recordLength + 2
            var indices = schedule.produced..<due
            if indices.count > window {
                indices = fifo.keepsNewest ? (due - window)..<due : indices.lowerBound..<(indices.lowerBound + window)
            }
            for index in indices { fifo.push(record(output(schedule.seconds(of: index)))) }
            if fifo.overflowed {
                registers[Int(R.intStatus)] |= R.fifoOverflow
                fifo.overflowed = false
            }
        }
        latch(output(schedule.seconds(of: due - 1)))
        registers[Int(R.intStatus)] |= R.rawDataReady
        schedule.produced = due
        self.schedule = schedule
    }

    public override func readByte(at register: UInt8) -> UInt8 {
        switch register {
        case R.fifoCountH, R.fifoCountH + 1:
            if corruptNextFIFOCount { return 0xFF }
            return register == R.fifoCountH ? UInt8(fifo.count >> 8) : UInt8(fifo.count & 0xFF)
        case R.fifoReadWrite:
            if fifo.count > 0 { lastFIFOByte = fifo.pop() }
            return lastFIFOByte
        default:
            return registers[Int(register)]
        }
    }

    public override func register(after register: UInt8) -> UInt8 {
        register == R.fifoReadWrite ? register : register &+ 1
    }

    public override func didRead(from register: UInt8, count: Int) {
        guard register != R.fifoReadWrite else { return }
        let span = Int(register)..<(Int(register) + count)
        // INT_STATUS clears on its read (INT_PIN_CFG's INT_ANYRD_2CLEAR is 0 at power-on).
        if span.contains(Int(R.intStatus)) { registers[Int(R.intStatus)] = 0 }
        if span.contains(Int(R.fifoCountH)) || span.contains(Int(R.fifoCountH) + 1) { corruptNextFIFOCount = false }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        switch register {
        case R.powerManagement1 where value & R.deviceReset != 0:
            loadPowerOnValues()
            restart()
            return
        case R.userControl:
            if value & R.userFIFOReset != 0 {
                fifo.reset()
                lastFIFOByte = 0
            }
            // FIFO_RST, I2C_MST_RST and SIG_COND_RESET clear themselves.
            registers[Int(register)] = value & ~0x07
        case R.intStatus, R.accelXOutH..<(R.accelXOutH + 14), R.fifoCountH, R.fifoCountH + 1, R.fifoReadWrite, R.whoAmI:
            return // read-only (a FIFO_R_W write would feed the FIFO; no driver does that)
        default:
            registers[Int(register)] = value
        }
        refreshSchedule()
    }

    /// After a reset or power cycle: empty FIFO, no flags, the schedule of the power-on state.
    private func restart() {
        fifo.reset()
        lastFIFOByte = 0
        schedule = nil
        refreshSchedule()
    }

    /// Restarts the schedule when measuring starts or the rate changes; samples exist only after.
    private func refreshSchedule() {
        if model.family == .mpu6500 { fifo.keepsNewest = registers[Int(R.config)] & 0x40 == 0 }
        guard isMeasuring else {
            schedule = nil
            return
        }
        let rate = outputRateHz * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }

    /// Bytes per FIFO record for the FIFO_EN bits, 0 while USER_CTRL's FIFO_EN is clear.
    private var fifoRecordLength: Int {
        guard registers[Int(R.userControl)] & R.userFIFOEnable != 0 else { return 0 }
        let enabled = registers[Int(R.fifoEnable)]
        var length = 0
        if enabled & R.fifoAccel != 0 { length += 6 }
        if enabled & R.fifoTemperature != 0 { length += 2 }
        for bit in [R.fifoGyroX, R.fifoGyroY, R.fifoGyroZ] where enabled & bit != 0 { length += 2 }
        return length
    }

    /// The motion as the chip outputs it `seconds` after leaving standby: zero from a sensor that
    /// has not started yet (MPU6050Register's start-up times), which a driver must not read.
    private func output(_ seconds: Double) -> IMUReading {
        var reading = motion.reading(atSeconds: seconds)
        if seconds * 1e9 < Double(R.gyroscopeStartupNanoseconds(model.family)) { reading.angularRate = .zero }
        if seconds * 1e9 < Double(R.accelerometerStartupNanoseconds(model.family)) { reading.acceleration = .zero }
        return reading
    }

    /// The sample's bytes as the data registers hold them: accelerometer, temperature, gyroscope.
    private func sampleBytes(_ reading: IMUReading) -> [UInt8] {
        let lsbPerG = InvenSenseSettings.accelerometerLSBPerG[accelerometerCode]
        let g = InvenSenseSettings.accelerometerRanges[accelerometerCode]
        let lsbPerDPS = InvenSenseSettings.gyroscopeLSBPerDPS[gyroscopeCode]
        let dps = InvenSenseSettings.gyroscopeRanges[gyroscopeCode]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(14)
        for axis in 0..<3 { bytes += Self.bigEndian(Self.counts(reading.acceleration[axis], lsbPerUnit: lsbPerG, range: g)) }
        bytes += Self.bigEndian(temperatureCounts)
        for axis in 0..<3 { bytes += Self.bigEndian(Self.counts(reading.angularRate[axis], lsbPerUnit: lsbPerDPS, range: dps)) }
        return bytes
    }

    /// 25 °C: (raw + 12420) / 340 on the 6050, (raw + 7011) / 333.87 on the 6500 (kernel offsets).
    private var temperatureCounts: Int16 { model.family == .mpu6050 ? -3920 : 1336 }

    private func latch(_ reading: IMUReading) {
        for (offset, byte) in sampleBytes(reading).enumerated() { registers[Int(R.accelXOutH) + offset] = byte }
    }

    /// The FIFO_EN sensors in register order.
    private func record(_ reading: IMUReading) -> [UInt8] {
        let sample = sampleBytes(reading)
        let enabled = registers[Int(R.fifoEnable)]
        var record: [UInt8] = []
        if enabled & R.fifoAccel != 0 { record += sample[0..<6] }
        if enabled & R.fifoTemperature != 0 { record += sample[6..<8] }
        for (axis, bit) in [R.fifoGyroX, R.fifoGyroY, R.fifoGyroZ].enumerated() where enabled & bit != 0 {
            record += sample[(8 + 2 * axis)..<(10 + 2 * axis)]
        }
        return record
    }
}

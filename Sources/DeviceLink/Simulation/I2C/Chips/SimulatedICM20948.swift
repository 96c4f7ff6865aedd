/// An ICM-20948 at register level: four user banks of 256 registers with REG_BANK_SEL (0x7F) in
/// each, power-on values per the data sheet (asleep, PWR_MGMT_1 0x41), DEVICE_RESET, the
/// gyroscope's divider at 1.125 kHz with FCHOICE set (9 kHz without), full-scale bits that
/// change the counts, data registers holding the newest sample, and a 512-byte FIFO fed with the
/// FIFO_EN_2 sensors in register order (accelerometer, gyroscope, temperature). FIFO_R_W does not
/// auto-increment; in stream mode a full FIFO drops its oldest bytes (misaligned, as on the MPU
/// parts), in snapshot mode (FIFO_MODE 1) it keeps them. INT_STATUS_1/_2 clear when read.
///
/// Samples follow the gyroscope's rate (its divider sets the FIFO rate, data sheet GYRO_SMPLRT_DIV);
/// the accelerometer's divider is stored, not modelled. The magnetometer is absent.
public final class SimulatedICM20948: SimulatedRegisterChip {
    private typealias R = ICM20948Register

    public let model: IMUModel
    /// The next FIFO count read returns garbage (a corrupted transfer), once.
    public var corruptNextFIFOCount = false
    /// Banks 0...3; `banks[b][0x7F]` is not used (REG_BANK_SEL is one register seen from every bank).
    public private(set) var banks: [[UInt8]] = []
    public private(set) var selectedBank = 0
    public private(set) var fifo = SimulatedFIFO(capacity: R.fifoBytes)
    private var schedule: SampleSchedule?
    private var lastFIFOByte: UInt8 = 0

    /// Power-on values other than zero (data sheet section 7 register map): WHO_AM_I, LP_CONFIG
    /// 0x40, PWR_MGMT_1 0x41 (asleep, auto clock); bank 2 GYRO_CONFIG_1 and ACCEL_CONFIG 0x01 (FCHOICE).
    private func loadBanks() {
        banks = Array(repeating: [UInt8](repeating: 0, count: 256), count: 4)
        banks[0][Int(R.whoAmI)] = model.identityValues[0]
        banks[0][0x05] = 0x40
        banks[0][Int(R.powerManagement1)] = R.sleep | R.clockAuto
        banks[2][Int(R.gyroConfig1)] = R.fchoice
        banks[2][Int(R.accelConfig)] = R.fchoice
        selectedBank = 0
    }

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        // The banks live here; the base class's single register file is not used.
        super.init(powerOn: [:], motion: motion, clock: clock, rateFactor: rateFactor)
        loadBanks()
    }

    public override func powerCycle() {
        super.powerCycle()
        restart()
    }

    /// A register of a bank, for tests.
    public func register(_ register: UInt8, bank: Int) -> UInt8 {
        register == R.bankSelect ? UInt8(selectedBank << 4) : banks[bank][Int(register)]
    }

    public var isMeasuring: Bool {
        banks[0][Int(R.powerManagement1)] & R.sleep == 0 && banks[0][Int(R.powerManagement2)] & R.disableAll != R.disableAll
    }

    /// 1.125 kHz / (1 + GYRO_SMPLRT_DIV) with GYRO_FCHOICE set; 9 kHz with the DLPF bypassed.
    public var outputRateHz: Double {
        guard banks[2][Int(R.gyroConfig1)] & R.fchoice != 0 else { return 9000 }
        return R.baseRateHz / Double(1 + Int(banks[2][Int(R.gyroSampleRateDivider)]))
    }

    var accelerometerCode: Int { Int(banks[2][Int(R.accelConfig)] >> 1) & 0x03 }
    var gyroscopeCode: Int { Int(banks[2][Int(R.gyroConfig1)] >> 1) & 0x03 }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let recordLength = fifoRecordLength
        if recordLength > 0 {
            let window = fifo.capacity / recordLength + 2
            var indices = schedule.produced..<due
            if indices.count > window {
                indices = fifo.keepsNewest ? (due - window)..<due : indices.lowerBound..<(indices.lowerBound + window)
            }
            for index in indices { fifo.push(record(output(schedule.seconds(of: index), rateHz: schedule.rateHz))) }
            if fifo.overflowed {
                banks[0][Int(R.intStatus2)] |= 0x01
                fifo.overflowed = false
            }
        }
        for (offset, byte) in sampleBytes(output(schedule.seconds(of: due - 1), rateHz: schedule.rateHz)).enumerated() {
            banks[0][Int(R.accelXOutH) + offset] = byte
        }
        banks[0][Int(R.intStatus1)] |= R.rawDataReady
        schedule.produced = due
        self.schedule = schedule
    }

    /// The motion as the chip outputs it `seconds` after waking: zero for a sample taken (a
    /// period before it comes out) before its sensor had started (ICM20948Register's start-up
    /// times), which a driver must not read.
    private func output(_ seconds: Double, rateHz: Double) -> IMUReading {
        var reading = motion.reading(atSeconds: seconds)
        let taken = (seconds - 1 / rateHz) * 1e9
        if taken < Double(R.gyroscopeStartupNanoseconds) { reading.angularRate = .zero }
        if taken < Double(R.accelerometerStartupNanoseconds) { reading.acceleration = .zero }
        return reading
    }

    public override func readByte(at register: UInt8) -> UInt8 {
        if register == R.bankSelect { return UInt8(selectedBank << 4) }
        guard selectedBank == 0 else { return banks[selectedBank][Int(register)] }
        switch register {
        case R.fifoCountH, R.fifoCountH + 1:
            if corruptNextFIFOCount { return 0xFF }
            return register == R.fifoCountH ? UInt8((fifo.count >> 8) & 0x1F) : UInt8(fifo.count & 0xFF)
        case R.fifoReadWrite:
            if fifo.count > 0 { lastFIFOByte = fifo.pop() }
            return lastFIFOByte
        default:
            return banks[0][Int(register)]
        }
    }

    public override func register(after register: UInt8) -> UInt8 {
        selectedBank == 0 && register == R.fifoReadWrite ? register : register &+ 1
    }

    public override func didRead(from register: UInt8, count: Int) {
        guard selectedBank == 0, register != R.fifoReadWrite else { return }
        let span = Int(register)..<(Int(register) + count)
        if span.contains(Int(R.intStatus1)) { banks[0][Int(R.intStatus1)] = 0 }
        if span.contains(Int(R.intStatus2)) { banks[0][Int(R.intStatus2)] = 0 }
        if span.contains(Int(R.fifoCountH)) || span.contains(Int(R.fifoCountH) + 1) { corruptNextFIFOCount = false }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        if register == R.bankSelect {
            selectedBank = Int(value >> 4) & 0x03
            return
        }
        guard selectedBank == 0 else {
            banks[selectedBank][Int(register)] = value
            refreshSchedule()
            return
        }
        switch register {
        case R.powerManagement1 where value & R.deviceReset != 0:
            restart()
            return
        case R.userControl:
            // DMP_RST, SRAM_RST and I2C_MST_RST clear themselves.
            banks[0][Int(register)] = value & ~0x0E
        case R.fifoReset:
            banks[0][Int(register)] = value
            if value & 0x01 != 0 { resetFIFO() }
        case R.whoAmI, R.intStatus1, R.intStatus2, R.accelXOutH..<(R.accelXOutH + 14), R.fifoCountH, R.fifoCountH + 1, R.fifoReadWrite:
            return
        default:
            banks[0][Int(register)] = value
        }
        refreshSchedule()
    }

    /// Power-on values in every bank, empty FIFO, no schedule (the part powers up asleep).
    private func restart() {
        loadBanks()
        resetFIFO()
        schedule = nil
        refreshSchedule()
    }

    private func resetFIFO() {
        fifo.reset()
        lastFIFOByte = 0
    }

    private func refreshSchedule() {
        fifo.keepsNewest = banks[0][Int(R.fifoMode)] & 0x1F == 0
        guard isMeasuring else {
            schedule = nil
            return
        }
        let rate = outputRateHz * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }

    /// Bytes per record for FIFO_EN_2; 0 while USER_CTRL's FIFO_EN is clear or FIFO 0 is held in reset.
    private var fifoRecordLength: Int {
        guard banks[0][Int(R.userControl)] & R.userFIFOEnable != 0, banks[0][Int(R.fifoReset)] & 0x01 == 0 else { return 0 }
        let enabled = banks[0][Int(R.fifoEnable2)]
        var length = enabled & R.fifoAccel != 0 ? 6 : 0
        for bit: UInt8 in [0x02, 0x04, 0x08, R.fifoTemperature] where enabled & bit != 0 { length += 2 }
        return length
    }

    /// Accelerometer, gyroscope, temperature (21 °C reads 0: data sheet TEMP_degC = TEMP_OUT/333.87 + 21).
    private func sampleBytes(_ reading: IMUReading) -> [UInt8] {
        let lsbPerG = InvenSenseSettings.accelerometerLSBPerG[accelerometerCode]
        let g = InvenSenseSettings.accelerometerRanges[accelerometerCode]
        let lsbPerDPS = InvenSenseSettings.gyroscopeLSBPerDPS[gyroscopeCode]
        let dps = InvenSenseSettings.gyroscopeRanges[gyroscopeCode]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(14)
        for axis in 0..<3 { bytes += Self.bigEndian(Self.counts(reading.acceleration[axis], lsbPerUnit: lsbPerG, range: g)) }
        for axis in 0..<3 { bytes += Self.bigEndian(Self.counts(reading.angularRate[axis], lsbPerUnit: lsbPerDPS, range: dps)) }
        bytes += Self.bigEndian(0)
        return bytes
    }

    private func record(_ reading: IMUReading) -> [UInt8] {
        let sample = sampleBytes(reading)
        let enabled = banks[0][Int(R.fifoEnable2)]
        var record: [UInt8] = []
        if enabled & R.fifoAccel != 0 { record += sample[0..<6] }
        for (axis, bit) in [UInt8(0x02), 0x04, 0x08].enumerated() where enabled & bit != 0 {
            record += sample[(6 + 2 * axis)..<(8 + 2 * axis)]
        }
        if enabled & R.fifoTemperature != 0 { record += sample[12..<14] }
        return record
    }
}

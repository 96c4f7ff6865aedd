/// What the simulated LSM6DS3/DSL and LSM6DSO share: WHO_AM_I 0x0F, CTRL1_XL/CTRL2_G ODR and full
/// scale (FS_XL codes 00 ±2, 10 ±4, 11 ±8, 01 ±16 g; FS_G 245 or 250/500/1000/2000 °/s, FS_125),
/// CTRL3_C (SW_RESET clears itself after 50 µs, BOOT, BDU, IF_INC), STATUS_REG XLDA/GDA and the
/// data registers 0x22–0x2D (gyroscope then accelerometer, little-endian). Powers up with both
/// sensors powered down. Subclasses add their FIFO.
public class SimulatedLSM6Chip: SimulatedRegisterChip {
    public let model: IMUModel
    /// The next FIFO count read returns garbage (a corrupted transfer), once.
    public var corruptNextFIFOCount = false
    /// Nominal Hz of ODR codes 1…10.
    let rateTable: [Double]
    /// The smallest gyroscope full scale: 245 °/s (DS3/DSL) or 250 (DSO).
    let smallestGyroscopeRange: Float
    private var dataSchedule: SampleSchedule?
    /// When a soft reset ends (SW_RESET reads 1 until then).
    private var resetEnds: Int64?
    /// Output pairs whose low byte was read without the high byte: BDU holds updates until read.
    private var heldPairs: Set<UInt8> = []
    /// Registers the current read transaction touched.
    var touched = [Bool](repeating: false, count: 256)
    /// Motion time zero: when the sensors were last switched on from power-down.
    var measuringSince: Int64 = 0

    init(model: IMUModel, rateTable: [Double], smallestGyroscopeRange: Float, powerOn: [UInt8: UInt8], motion: any SimulatedMotion,
         clock: any IMUClock, rateFactor: Double) {
        self.model = model
        self.rateTable = rateTable
        self.smallestGyroscopeRange = smallestGyroscopeRange
        var values = powerOn
        values[0x0F] = model.identityValues[0]
        values[0x12] = 0x04  // IF_INC
        super.init(powerOn: values, motion: motion, clock: clock, rateFactor: rateFactor)
    }

    // MARK: Sensor settings

    func rate(code: UInt8) -> Double {
        (1...rateTable.count).contains(Int(code)) ? rateTable[Int(code) - 1] : 0
    }

    var accelerometerRate: Double { rate(code: registers[0x10] >> 4) }
    var gyroscopeRate: Double { rate(code: registers[0x11] >> 4) }

    /// FS_XL with 0.061/0.122/0.244/0.488 mg/LSB.
    var accelerometerScale: (range: Float, lsbPerG: Float) {
        switch (registers[0x10] >> 2) & 0x03 {
        case 0b00: (2, 1 / 0.061e-3)
        case 0b10: (4, 1 / 0.122e-3)
        case 0b11: (8, 1 / 0.244e-3)
        default: (16, 1 / 0.488e-3)
        }
    }

    /// FS_G with 8.75/17.5/35/70 mdps/LSB; FS_125 (bit 1) 4.375.
    var gyroscopeScale: (range: Float, lsbPerDPS: Float) {
        if registers[0x11] & 0x02 != 0 { return (125, 1 / 4.375e-3) }
        switch (registers[0x11] >> 2) & 0x03 {
        case 0b00: return (smallestGyroscopeRange, 1 / 8.75e-3)
        case 0b01: return (500, 1 / 17.5e-3)
        case 0b10: return (1000, 1 / 35e-3)
        default: return (2000, 1 / 70e-3)
        }
    }

    /// Three little-endian counts at the accelerometer's range.
    func accelerometerBytes(_ reading: IMUReading) -> [UInt8] {
        let scale = accelerometerScale
        return bytes(reading.acceleration, lsbPerUnit: scale.lsbPerG, range: scale.range)
    }

    func gyroscopeBytes(_ reading: IMUReading) -> [UInt8] {
        let scale = gyroscopeScale
        return bytes(reading.angularRate, lsbPerUnit: scale.lsbPerDPS, range: scale.range)
    }

    private func bytes(_ value: SIMD3<Float>, lsbPerUnit: Float, range: Float) -> [UInt8] {
        (0..<3).flatMap { Self.littleEndian(Self.counts(value[$0], lsbPerUnit: lsbPerUnit, range: range)) }
    }

    /// The output at sample `index` of `schedule`: the motion, or what a sensor outputs before
    /// its filters settle. A sample comes out a period after it was taken.
    func reading(_ schedule: SampleSchedule, index: Int) -> IMUReading {
        let seconds = Double(schedule.startNanoseconds - measuringSince) / 1e9 + schedule.seconds(of: index)
        var reading = motion.reading(atSeconds: seconds)
        unsettle(&reading, takenSecondsAfterOn: seconds - 1 / schedule.rateHz)
        return reading
    }

    /// Replaces what a sensor outputs while its filters settle after it was switched on; the
    /// output as it is by default.
    func unsettle(_ reading: inout IMUReading, takenSecondsAfterOn seconds: Double) {}

    // MARK: Time

    override public func advance(toNanoseconds now: Int64) {
        if let resetEnds, now >= resetEnds {
            registers[0x12] &= ~0x01
            self.resetEnds = nil
        }
        updateDataRegisters(now)
        produceFIFO(upTo: now)
    }

    /// The subclass's FIFO writes.
    func produceFIFO(upTo now: Int64) {}

    /// Runs the gyroscope's and the accelerometer's FIFO writes due by `now` in time order (the
    /// gyroscope first at a tie, as the FIFO pattern has it). A backlog longer than `keep` writes
    /// per sensor is cut to the last `keep` (older ones would be overwritten anyway); the counts
    /// cut are returned so the caller can set its overrun.
    func runBatches(gyroscope: inout SampleSchedule?, accelerometer: inout SampleSchedule?, upTo now: Int64, keep: Int,
                    write: (_ isGyroscope: Bool, _ schedule: SampleSchedule, _ index: Int) -> Void) -> (gyroscope: Int, accelerometer: Int) {
        func cut(_ schedule: inout SampleSchedule?) -> Int {
            guard var current = schedule else { return 0 }
            let excess = current.due(at: now) - current.produced - keep
            guard excess > 0 else { return 0 }
            current.produced += excess
            schedule = current
            return excess
        }
        func nextTime(_ schedule: SampleSchedule?) -> Double? {
            guard let schedule, schedule.due(at: now) > schedule.produced else { return nil }
            return Double(schedule.startNanoseconds) + Double(schedule.produced + 1) * 1e9 / schedule.rateHz
        }
        let skipped = (cut(&gyroscope), cut(&accelerometer))
        while true {
            let gyroscopeTime = nextTime(gyroscope)
            let accelerometerTime = nextTime(accelerometer)
            if let gyroscopeTime, accelerometerTime.map({ gyroscopeTime <= $0 }) ?? true, let schedule = gyroscope {
                write(true, schedule, schedule.produced)
                gyroscope?.produced += 1
            } else if accelerometerTime != nil, let schedule = accelerometer {
                write(false, schedule, schedule.produced)
                accelerometer?.produced += 1
            } else {
                return skipped
            }
        }
    }

    /// A FIFO batch schedule for one sensor: `rate` from `now`, half a period later when
    /// `lagging` (the accelerometer's, so a gyroscope set lands before its accelerometer set and
    /// a drain can find a pattern half written, as a read racing the chip's FIFO write does).
    func batchSchedule(rate: Double, lagging: Bool, at now: Int64) -> SampleSchedule? {
        guard rate > 0 else { return nil }
        let effective = rate * rateFactor
        let lag = lagging ? Int64(0.5e9 / effective) : 0
        return SampleSchedule(startNanoseconds: now + lag, rateHz: effective)
    }

    /// The FIFO back to empty (soft reset, power cycle).
    func clearFIFO() {}

    /// ODRs changed (the FIFO's batching follows them).
    func sensorsChanged(at now: Int64) {}

    private func updateDataRegisters(_ now: Int64) {
        guard var schedule = dataSchedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        schedule.produced = due
        dataSchedule = schedule
        // BDU: a pair read half keeps the registers as they are until its high byte is read.
        if registers[0x12] & 0x40 != 0, !heldPairs.isEmpty { return }
        let reading = reading(schedule, index: due - 1)
        if accelerometerRate > 0 {
            for (offset, byte) in accelerometerBytes(reading).enumerated() { registers[0x28 + offset] = byte }
            registers[0x1E] |= 0x01
        }
        if gyroscopeRate > 0 {
            for (offset, byte) in gyroscopeBytes(reading).enumerated() { registers[0x22 + offset] = byte }
            registers[0x1E] |= 0x02
        }
    }

    /// The data registers follow the faster sensor; both restart when the rates change.
    private func restartData(at now: Int64) {
        let rate = max(accelerometerRate, gyroscopeRate) * rateFactor
        guard rate != (dataSchedule?.rateHz ?? 0) else { return }
        if dataSchedule == nil { measuringSince = now }
        dataSchedule = rate > 0 ? SampleSchedule(startNanoseconds: now, rateHz: rate) : nil
        if rate == 0 { registers[0x1E] &= ~0x03 }
    }

    // MARK: Transactions

    override public func readByte(at register: UInt8) -> UInt8 {
        touched[Int(register)] = true
        return value(at: register)
    }

    /// A register's value as read (subclasses compute their status and FIFO ports here).
    func value(at register: UInt8) -> UInt8 { registers[Int(register)] }

    override public func didRead(from register: UInt8, count: Int) {
        for low in stride(from: 0x22, to: 0x2E, by: 2) {
            if touched[low + 1] {
                heldPairs.remove(UInt8(low))
            } else if touched[low] {
                heldPairs.insert(UInt8(low))
            }
        }
        // Reading a sensor's output clears its data-ready bit.
        if touched[0x22...0x27].contains(true) { registers[0x1E] &= ~0x02 }
        if touched[0x28...0x2D].contains(true) { registers[0x1E] &= ~0x01 }
        for index in touched.indices { touched[index] = false }
    }

    override public func didWrite(_ value: UInt8, to register: UInt8) {
        let now = clock.nowNanoseconds()
        switch register {
        case 0x0F, 0x1E, 0x20...0x2D, 0x3A...0x3F:
            return  // read-only
        case 0x12:
            if value & 0x01 != 0 {
                softReset(at: now)
            } else {
                registers[0x12] = value & ~0x80  // BOOT reloads trimming and clears itself
            }
        case 0x10, 0x11:
            registers[Int(register)] = value
            restartData(at: now)
            sensorsChanged(at: now)
        default:
            registers[Int(register)] = value
        }
    }

    private func softReset(at now: Int64) {
        clearState()
        loadPowerOnValues()
        registers[0x12] |= 0x01
        resetEnds = now + 50_000
    }

    private func clearState() {
        dataSchedule = nil
        heldPairs = []
        resetEnds = nil
        clearFIFO()
    }

    override public func powerCycle() {
        clearState()
        super.powerCycle()
    }
}

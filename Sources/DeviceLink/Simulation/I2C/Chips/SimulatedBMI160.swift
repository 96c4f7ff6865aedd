/// A BMI160 at register level: CHIP_ID, both sensors suspended at power-on and started by CMD
/// (PMU_STATUS follows), soft reset, ODR and range codes that change the counts, data registers
/// (gyroscope then accelerometer, little-endian) with drdy_acc cleared by reading them, and a
/// 1 KB FIFO of headerless frames that, when full, drops its oldest whole frame and sets
/// ffull_int. FIFO_DATA does not auto-increment; CMD 0xB0 flushes.
public final class SimulatedBMI160: SimulatedRegisterChip {
    private typealias R = BMI160Register

    public let model: IMUModel
    /// The next FIFO_LENGTH read returns an impossible length, once.
    public var corruptNextFIFOCount = false
    private var fifo = SimulatedFIFO(capacity: BMI160Register.fifoBytes)
    private var schedule: SampleSchedule?
    private var accelerometerOn = false
    private var gyroscopeOn = false
    private var full = false

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        // Power-on ACC_CONF 0x28 (100 Hz), ACC_RANGE 0x03, GYR_CONF 0x28, GYR_RANGE 0 (data sheet table 19).
        super.init(powerOn: [R.chipID: 0xD1, R.accelerometerConfig: 0x28, R.accelerometerRange: 0x03, R.gyroscopeConfig: 0x28],
                   motion: motion, clock: clock, rateFactor: rateFactor)
    }

    public override func powerCycle() {
        super.powerCycle()
        restart()
    }

    private func restart() {
        fifo.reset()
        full = false
        accelerometerOn = false
        gyroscopeOn = false
        schedule = nil
    }

    var frameLength: Int {
        let config = registers[Int(R.fifoConfig1)]
        return (config & R.fifoGyroscope != 0 ? 6 : 0) + (config & R.fifoAccelerometer != 0 ? 6 : 0)
    }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let frame = frameLength
        let window = frame > 0 ? R.fifoBytes / frame + 2 : 1
        for index in max(schedule.produced, due - window)..<due {
            let bytes = sample(motion.reading(atSeconds: schedule.seconds(of: index)))
            if index == due - 1 { for (offset, byte) in bytes.enumerated() { registers[Int(R.gyroscopeXLow) + offset] = byte } }
            guard frame > 0 else { continue }
            if fifo.count + frame > R.fifoBytes {
                for _ in 0..<frame { _ = fifo.pop() }
                full = true
            }
            let config = registers[Int(R.fifoConfig1)]
            fifo.push((config & R.fifoGyroscope != 0 ? Array(bytes[0..<6]) : []) + (config & R.fifoAccelerometer != 0 ? Array(bytes[6..<12]) : []))
        }
        registers[Int(R.status)] |= R.accelerometerDataReady
        schedule.produced = due
        self.schedule = schedule
    }

    public override func readByte(at register: UInt8) -> UInt8 {
        switch register {
        case R.pmuStatus:
            return (accelerometerOn ? 0x10 : 0) | (gyroscopeOn ? 0x04 : 0)
        case R.interruptStatus1:
            return full ? R.fifoFull : 0
        case R.fifoLength, R.fifoLength + 1:
            if corruptNextFIFOCount { return 0xFF }
            return register == R.fifoLength ? UInt8(fifo.count & 0xFF) : UInt8(fifo.count >> 8)
        case R.fifoData:
            return fifo.pop(empty: 0x80)
        default:
            return registers[Int(register)]
        }
    }

    public override func register(after register: UInt8) -> UInt8 {
        register == R.fifoData ? register : register &+ 1
    }

    public override func didRead(from register: UInt8, count: Int) {
        let span = Int(register)..<(Int(register) + count)
        if span.contains(Int(R.fifoLength)) { corruptNextFIFOCount = false }
        if span.contains(Int(R.gyroscopeXLow) + 6) { registers[Int(R.status)] &= ~R.accelerometerDataReady }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        switch register {
        case R.command:
            switch value {
            case R.softReset:
                loadPowerOnValues()
                restart()
            case R.accelerometerNormal: accelerometerOn = true
            case R.accelerometerSuspend: accelerometerOn = false
            case R.gyroscopeNormal: gyroscopeOn = true
            case R.gyroscopeSuspend: gyroscopeOn = false
            case R.fifoFlush:
                fifo.reset()
                full = false
            default: break
            }
        case R.chipID, R.pmuStatus, R.status, R.interruptStatus1, R.fifoLength, R.fifoLength + 1, R.fifoData, R.gyroscopeXLow..<(R.gyroscopeXLow + 12):
            return
        default:
            registers[Int(register)] = value
        }
        refreshSchedule()
    }

    private func refreshSchedule() {
        guard accelerometerOn else {
            schedule = nil
            return
        }
        let rate = R.rate(code: registers[Int(R.accelerometerConfig)] & 0x0F) * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }

    /// Gyroscope then accelerometer counts, little-endian; a suspended gyroscope reads zero.
    private func sample(_ reading: IMUReading) -> [UInt8] {
        let accel = R.accelerometerRanges.first { $0.code == registers[Int(R.accelerometerRange)] } ?? R.accelerometerRanges[0]
        let gyro = R.gyroscopeRanges.first { $0.code == registers[Int(R.gyroscopeRange)] & 0x07 } ?? R.gyroscopeRanges[4]
        var bytes: [UInt8] = []
        for axis in 0..<3 {
            bytes += Self.littleEndian(gyroscopeOn ? Self.counts(reading.angularRate[axis], lsbPerUnit: gyro.lsb, range: gyro.dps) : 0)
        }
        for axis in 0..<3 { bytes += Self.littleEndian(Self.counts(reading.acceleration[axis], lsbPerUnit: accel.lsb, range: accel.g)) }
        return bytes
    }
}

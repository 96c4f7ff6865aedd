/// An ITG-3200 at register level: WHO_AM_I, H_RESET, SLEEP, the rate from SMPLRT_DIV and
/// DLPF_CFG (1 kHz, or 8 kHz with the filter at 256 Hz), data registers holding the newest
/// sample (big-endian, 14.375 LSB per °/s), and RAW_DATA_RDY set by each sample and cleared by
/// reading INT_STATUS. It has no FIFO.
public final class SimulatedITG3200: SimulatedRegisterChip {
    private typealias R = ITG3200Register

    public let model: IMUModel
    private var schedule: SampleSchedule?

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        super.init(powerOn: [R.whoAmI: 0x68], motion: motion, clock: clock, rateFactor: rateFactor)
        refreshSchedule()
    }

    public override func powerCycle() {
        super.powerCycle()
        schedule = nil
        refreshSchedule()
    }

    var isMeasuring: Bool { registers[Int(R.powerManagement)] & R.sleep == 0 }

    public var outputRateHz: Double {
        let internalRate: Double = registers[Int(R.dlpfFullScale)] & 0x07 == 0 ? 8000 : 1000
        return internalRate / Double(1 + Int(registers[Int(R.sampleRateDivider)]))
    }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let reading = motion.reading(atSeconds: schedule.seconds(of: due - 1))
        for axis in 0..<3 {
            let bytes = Self.bigEndian(Self.counts(reading.angularRate[axis], lsbPerUnit: R.lsbPerDPS, range: 2000))
            registers[Int(R.gyroXOutH) + 2 * axis] = bytes[0]
            registers[Int(R.gyroXOutH) + 2 * axis + 1] = bytes[1]
        }
        registers[Int(R.interruptStatus)] |= R.rawReady
        schedule.produced = due
        self.schedule = schedule
    }

    public override func didRead(from register: UInt8, count: Int) {
        if (Int(register)..<(Int(register) + count)).contains(Int(R.interruptStatus)) { registers[Int(R.interruptStatus)] &= ~R.rawReady }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        switch register {
        case R.powerManagement where value & R.deviceReset != 0:
            loadPowerOnValues()
            schedule = nil
        case R.whoAmI, R.interruptStatus, R.temperatureOutH...(R.gyroXOutH + 5):
            return
        default:
            registers[Int(register)] = value
        }
        refreshSchedule()
    }

    private func refreshSchedule() {
        guard isMeasuring else {
            schedule = nil
            return
        }
        let rate = outputRateHz * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }
}

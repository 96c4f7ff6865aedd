/// An ADXL345 (`.adxl345`) or ADXL375 (`.adxl375`) at register level: DEVID, BW_RATE's rate,
/// DATA_FORMAT's range and resolution changing the counts, measuring only with POWER_CTL's
/// Measure bit, data registers holding the newest sample in bypass mode, and a 32-entry FIFO in
/// FIFO mode (stops when full) or stream mode (keeps the newest, sets OVERRUN). A read that
/// starts in DATAX0…DATAZ1 reads the oldest entry and pops it at the end of the transaction.
public final class SimulatedADXL345: SimulatedRegisterChip {
    private typealias R = ADXL345Register

    public let model: IMUModel
    /// The next FIFO_STATUS read returns an impossible entry count, once.
    public var corruptNextFIFOCount = false
    private var entries: [[UInt8]] = []
    private var latest: [UInt8] = [0, 0, 0, 0, 0, 0]
    private var overrun = false
    private var newData = false
    private var schedule: SampleSchedule?
    /// The entry a data read is serving, fixed for the whole transaction.
    private var serving: [UInt8]?

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        self.model = model
        super.init(powerOn: [R.deviceID: 0xE5, R.bandwidthRate: 0x0A], motion: motion, clock: clock, rateFactor: rateFactor)
    }

    public override func powerCycle() {
        super.powerCycle()
        entries.removeAll()
        overrun = false
        newData = false
        schedule = nil
    }

    var mode: UInt8 { registers[Int(R.fifoControl)] & 0xC0 }
    var isMeasuring: Bool { registers[Int(R.powerControl)] & R.measure != 0 }

    /// Counts per g and the largest count: the ADXL375 is fixed at 49 mg/LSB; the ADXL345 is
    /// 3.9 mg/LSB in full resolution, else 10 bits over its range.
    var scale: (lsbPerG: Float, range: Float, bits: Int) {
        if model.family == .adxl375 { return (1 / 0.049, 200, 13) }
        let format = registers[Int(R.dataFormat)]
        let rangeCode = Int(format & 0x03)
        let range = Float(2 << rangeCode)
        return format & R.fullResolution != 0 ? (256, range, 10 + rangeCode) : (512 / range, range, 10)
    }

    public override func advance(toNanoseconds now: Int64) {
        guard var schedule else { return }
        let due = schedule.due(at: now)
        guard due > schedule.produced else { return }
        let first = max(schedule.produced, due - R.fifoEntries - 1)
        for index in first..<due {
            let bytes = sample(motion.reading(atSeconds: schedule.seconds(of: index)))
            latest = bytes
            guard mode != R.bypassMode else { continue }
            if entries.count >= R.fifoEntries {
                if mode == R.fifoMode { continue }
                entries.removeFirst()
                overrun = true
            }
            entries.append(bytes)
        }
        newData = true
        schedule.produced = due
        self.schedule = schedule
    }

    public override func readByte(at register: UInt8) -> UInt8 {
        switch register {
        case R.dataX0...(R.dataX0 + 5):
            if serving == nil { serving = mode != R.bypassMode && !entries.isEmpty ? entries[0] : latest }
            return serving?[Int(register - R.dataX0)] ?? 0
        case R.fifoStatus:
            if corruptNextFIFOCount {
                corruptNextFIFOCount = false
                return 0x3F
            }
            return UInt8(min(R.fifoEntries, entries.count))
        case R.interruptSource:
            var value: UInt8 = 0
            if newData || !entries.isEmpty { value |= R.dataReady }
            if entries.count > Int(registers[Int(R.fifoControl)] & 0x1F) { value |= R.watermark }
            if overrun { value |= R.overrun }
            return value
        default:
            return registers[Int(register)]
        }
    }

    public override func didRead(from register: UInt8, count: Int) {
        guard serving != nil else { return }
        serving = nil
        newData = false
        if mode != R.bypassMode, !entries.isEmpty {
            entries.removeFirst()
            if entries.isEmpty { overrun = false }
        }
    }

    public override func didWrite(_ value: UInt8, to register: UInt8) {
        switch register {
        case R.deviceID, R.interruptSource, R.fifoStatus, R.dataX0...(R.dataX0 + 5):
            return
        case R.fifoControl:
            registers[Int(register)] = value
            if value & 0xC0 == R.bypassMode {
                entries.removeAll()
                overrun = false
            }
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
        let rate = R.rate(code: registers[Int(R.bandwidthRate)] & 0x0F) * rateFactor
        if schedule?.rateHz != rate { schedule = SampleSchedule(startNanoseconds: clock.nowNanoseconds(), rateHz: rate) }
    }

    private func sample(_ reading: IMUReading) -> [UInt8] {
        let (lsbPerG, range, bits) = scale
        var bytes: [UInt8] = []
        for axis in 0..<3 { bytes += Self.littleEndian(Self.counts(reading.acceleration[axis], lsbPerUnit: lsbPerG, range: range, bits: bits)) }
        return bytes
    }
}

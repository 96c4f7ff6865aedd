/// An LSM6DS3 (WHO_AM_I 0x69, 8 KB FIFO) or LSM6DSL (0x6A, 4 KB) at register level, with the
/// untagged FIFO: FIFO_CTRL1/2 threshold in words (12 / 11 bits), FIFO_CTRL3 decimation (gyroscope
/// 5:3, accelerometer 2:0; any non-zero code is taken as 1 here), FIFO_CTRL5 FIFO ODR 6:3 and mode
/// 2:0 (0 bypass empties it, 1 FIFO stops when full, 6 continuous overwrites the oldest word),
/// FIFO_STATUS1–4 (unread words, watermark/overrun (cleared by reading a word)/full/empty, the
/// pattern position of the next word)
/// and FIFO_DATA_OUT_L/H 0x3E/0x3F, where a read of 0x3E takes the next word and the register
/// pointer rolls back from 0x3F to 0x3E.
public final class SimulatedLSM6DS3: SimulatedLSM6Chip {
    private var fifo: SimulatedFIFO
    private var gyroscopeBatch: SampleSchedule?
    private var accelerometerBatch: SampleSchedule?
    /// Words written since the FIFO was last emptied, for the pattern position.
    private var wordsWritten = 0
    /// The word 0x3E took, whose high byte 0x3F gives.
    private var latch: (low: UInt8, high: UInt8) = (0, 0)
    private let countHighMask: UInt8

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        let isLSM6DS3 = model.identityValues.contains(0x69)
        fifo = SimulatedFIFO(capacity: isLSM6DS3 ? 8192 : 4096)
        countHighMask = isLSM6DS3 ? 0x0F : 0x07
        // CTRL9_XL and CTRL10_C power up with the three axes enabled.
        super.init(model: model, rateTable: [12.5, 26, 52, 104, 208, 416, 833, 1660, 3330, 6660], smallestGyroscopeRange: 245,
                   powerOn: [0x18: 0x38, 0x19: 0x38], motion: motion, clock: clock, rateFactor: rateFactor)
    }

    /// Unread FIFO words.
    public var fifoWords: Int { fifo.count / 2 }

    private var mode: UInt8 { registers[0x0A] & 0x07 }
    private var fifoRate: Double { rate(code: (registers[0x0A] >> 3) & 0x0F) }
    private var gyroscopeInFIFO: Bool { registers[0x08] & 0x38 != 0 && gyroscopeRate > 0 }
    private var accelerometerInFIFO: Bool { registers[0x08] & 0x07 != 0 && accelerometerRate > 0 }
    private var patternWords: Int { (gyroscopeInFIFO ? 3 : 0) + (accelerometerInFIFO ? 3 : 0) }

    /// Index within the pattern of the next word a read gets.
    public var patternPosition: Int {
        let words = patternWords
        return words == 0 ? 0 : (wordsWritten - fifoWords) % words
    }

    override func clearFIFO() {
        fifo.reset()
        gyroscopeBatch = nil
        accelerometerBatch = nil
        wordsWritten = 0
    }

    /// The FIFO runs at its own ODR while not in bypass; each tick writes the enabled data sets.
    private func restartBatches(at now: Int64) {
        let active = mode != 0 && fifoRate > 0
        let gyroscope = active && gyroscopeInFIFO ? fifoRate * rateFactor : 0
        let accelerometer = active && accelerometerInFIFO ? fifoRate * rateFactor : 0
        if gyroscope != (gyroscopeBatch?.rateHz ?? 0) || accelerometer != (accelerometerBatch?.rateHz ?? 0) {
            gyroscopeBatch = batchSchedule(rate: gyroscope / rateFactor, lagging: false, at: now)
            accelerometerBatch = batchSchedule(rate: accelerometer / rateFactor, lagging: true, at: now)
        }
    }

    override func sensorsChanged(at now: Int64) { restartBatches(at: now) }

    /// Zeros (free fall without rotation, to a detector) for the samples taken while the filters
    /// settle, the kernel's sample counts (LSM6Settings), which a driver must not read. The
    /// settling times are rounded up to whole nanoseconds: a sample taken a nanosecond short of
    /// one is the first settled.
    override func unsettle(_ reading: inout IMUReading, takenSecondsAfterOn seconds: Double) {
        let nanoseconds = seconds * 1e9 + 1
        if nanoseconds < Double(LSM6Settings.settlingNanoseconds(rateHz: gyroscopeRate, gyroscope: true)) { reading.angularRate = .zero }
        if nanoseconds < Double(LSM6Settings.settlingNanoseconds(rateHz: accelerometerRate, gyroscope: false)) { reading.acceleration = .zero }
    }

    override func produceFIFO(upTo now: Int64) {
        let keep = fifo.capacity / 6 + 1
        let skipped = runBatches(gyroscope: &gyroscopeBatch, accelerometer: &accelerometerBatch, upTo: now, keep: keep) { isGyroscope, schedule, index in
            let sample = reading(schedule, index: index)
            let bytes = isGyroscope ? gyroscopeBytes(sample) : accelerometerBytes(sample)
            for word in 0..<3 { push([bytes[2 * word], bytes[2 * word + 1]]) }
        }
        if skipped.gyroscope + skipped.accelerometer > 0 {
            // Those words went through a full FIFO: overwritten (continuous) or refused (FIFO mode).
            fifo.overflowed = true
            if fifo.keepsNewest { wordsWritten += 3 * (skipped.gyroscope + skipped.accelerometer) }
        }
    }

    private func push(_ word: [UInt8]) {
        let before = fifo.count
        fifo.push(word)
        if fifo.count != before || fifo.keepsNewest { wordsWritten += 1 }
    }

    override func value(at register: UInt8) -> UInt8 {
        let words = fifoWords
        switch register {
        case 0x3A:
            return corruptNextFIFOCount ? 0xFF : UInt8(words & 0xFF)
        case 0x3B:
            if corruptNextFIFOCount { return 0xFF }
            let threshold = Int(registers[0x06]) | Int(registers[0x07] & countHighMask) << 8
            var value = UInt8(words >> 8) & countHighMask
            if threshold > 0, words >= threshold { value |= 0x80 }
            if fifo.overflowed { value |= 0x40 }
            if words + patternWords > fifo.capacity / 2 { value |= 0x20 }  // full at the next ODR tick
            if words == 0 { value |= 0x10 }
            return value
        case 0x3C:
            return UInt8(patternPosition & 0xFF)
        case 0x3D:
            return UInt8(patternPosition >> 8)
        case 0x3E:
            // OVER_RUN means "completely filled", not latched: taking a word clears it until the
            // next write overwrites again.
            if words > 0 { fifo.overflowed = false }
            latch = (fifo.pop(), fifo.pop())
            return latch.low
        case 0x3F:
            return latch.high
        default:
            return registers[Int(register)]
        }
    }

    override public func register(after register: UInt8) -> UInt8 {
        register == 0x3F ? 0x3E : register &+ 1
    }

    override public func didRead(from register: UInt8, count: Int) {
        if touched[0x3A] || touched[0x3B] { corruptNextFIFOCount = false }
        super.didRead(from: register, count: count)
    }

    override public func didWrite(_ value: UInt8, to register: UInt8) {
        super.didWrite(value, to: register)
        let now = clock.nowNanoseconds()
        switch register {
        case 0x0A:
            if value & 0x07 == 0 {
                clearFIFO()
            } else {
                fifo.keepsNewest = value & 0x07 != 1
            }
            restartBatches(at: now)
        case 0x08:
            restartBatches(at: now)
        default:
            break
        }
    }
}

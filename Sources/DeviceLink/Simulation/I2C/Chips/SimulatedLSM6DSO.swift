/// An LSM6DSO/DSOX (WHO_AM_I 0x6C) at register level, with the tagged FIFO of 512 words
/// (kernel max_fifo_size): FIFO_CTRL1/2 watermark in words (9 bits), FIFO_CTRL3 batch rates
/// (gyroscope 7:4, accelerometer 3:0; a sensor is batched at the lower of its batch rate and ODR),
/// FIFO_CTRL4 mode 2:0 (0 bypass empties it, 1 FIFO stops when full, 6 continuous overwrites the
/// oldest whole word), FIFO_STATUS1/2 (10-bit word count, WTM_IA 7, OVR_IA 6 cleared by reading a
/// word, FULL_IA 5, OVR_LATCHED 3 cleared by reading it) and FIFO_DATA_OUT_TAG 0x78 + 0x79–0x7E:
/// reading 0x78 takes the next word, and the register pointer rolls back from 0x7E to 0x78. Tag
/// byte: sensor 7:3 (0x01 gyroscope, 0x02 accelerometer), TAG_CNT 2:1 (the sample's slot, modulo
/// 4), parity bit 0 (even over 7:1; not checked by the driver).
public final class SimulatedLSM6DSO: SimulatedLSM6Chip {
    private var fifo = SimulatedFIFO(capacity: 512 * 7)
    private var gyroscopeBatch: SampleSchedule?
    private var accelerometerBatch: SampleSchedule?
    private var latch = [UInt8](repeating: 0, count: 7)
    private var overrunLatched = false
    /// Each slot's accelerometer word before its gyroscope word. The data sheet does not fix the
    /// order within a slot; the tags' TAG_CNT, not the order, pairs them.
    public var accelerometerFirst = false

    public init(model: IMUModel, motion: any SimulatedMotion = RestingMotion(), clock: any IMUClock, rateFactor: Double = 1) {
        // PIN_CTRL 0x3F and CTRL9_XL 0xE0 at power-on (data sheet register table).
        super.init(model: model, rateTable: [12.5, 26, 52, 104, 208, 417, 833, 1667, 3333, 6667], smallestGyroscopeRange: 250,
                   powerOn: [0x02: 0x3F, 0x18: 0xE0], motion: motion, clock: clock, rateFactor: rateFactor)
    }

    /// Unread FIFO words.
    public var fifoWords: Int { fifo.count / 7 }

    private var mode: UInt8 { registers[0x0A] & 0x07 }

    override func clearFIFO() {
        fifo.reset()
        gyroscopeBatch = nil
        accelerometerBatch = nil
        overrunLatched = false
    }

    private func restartBatches(at now: Int64) {
        let active = mode != 0
        let gyroscope = active ? min(rate(code: registers[0x09] >> 4), gyroscopeRate) : 0
        let accelerometer = active ? min(rate(code: registers[0x09] & 0x0F), accelerometerRate) : 0
        if gyroscope * rateFactor != (gyroscopeBatch?.rateHz ?? 0) {
            gyroscopeBatch = batchSchedule(rate: gyroscope, lagging: accelerometerFirst, at: now)
        }
        if accelerometer * rateFactor != (accelerometerBatch?.rateHz ?? 0) {
            accelerometerBatch = batchSchedule(rate: accelerometer, lagging: !accelerometerFirst, at: now)
        }
    }

    override func sensorsChanged(at now: Int64) { restartBatches(at: now) }

    override func produceFIFO(upTo now: Int64) {
        let skipped = runBatches(gyroscope: &gyroscopeBatch, accelerometer: &accelerometerBatch, upTo: now, keep: 512) { isGyroscope, schedule, index in
            let sample = reading(schedule, index: index)
            var tag = (isGyroscope ? 0x01 : 0x02) << 3 | UInt8(index & 0x03) << 1
            tag |= UInt8((tag >> 1).nonzeroBitCount & 1)
            push([tag] + (isGyroscope ? gyroscopeBytes(sample) : accelerometerBytes(sample)))
        }
        if skipped.gyroscope + skipped.accelerometer > 0 { setOverrun() }
    }

    private func push(_ word: [UInt8]) {
        fifo.push(word)
        if fifo.overflowed { overrunLatched = true }
    }

    private func setOverrun() {
        fifo.overflowed = true
        overrunLatched = true
    }

    override func value(at register: UInt8) -> UInt8 {
        let words = fifoWords
        switch register {
        case 0x3A:
            return corruptNextFIFOCount ? 0xFF : UInt8(words & 0xFF)
        case 0x3B:
            if corruptNextFIFOCount { return 0xFF }
            let watermark = Int(registers[0x07]) | Int(registers[0x08] & 0x01) << 8
            var value = UInt8(words >> 8) & 0x03
            if watermark > 0, words >= watermark { value |= 0x80 }
            if fifo.overflowed { value |= 0x40 }
            if words + 2 > 512 { value |= 0x20 }  // full at the next batch
            if overrunLatched { value |= 0x08 }
            return value
        case 0x78:
            // OVR_IA means "completely filled", not latched (OVR_LATCHED is): taking a word
            // clears it until the next write overwrites again.
            if words > 0 { fifo.overflowed = false }
            for index in latch.indices { latch[index] = fifo.pop() }
            return latch[0]
        case 0x79...0x7E:
            return latch[Int(register) - 0x78]
        default:
            return registers[Int(register)]
        }
    }

    override public func register(after register: UInt8) -> UInt8 {
        register == 0x7E ? 0x78 : register &+ 1
    }

    override public func didRead(from register: UInt8, count: Int) {
        if touched[0x3A] || touched[0x3B] { corruptNextFIFOCount = false }
        if touched[0x3B] { overrunLatched = false }
        super.didRead(from: register, count: count)
    }

    override public func didWrite(_ value: UInt8, to register: UInt8) {
        guard !(0x78...0x7E).contains(register) else { return }
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
        case 0x09:
            restartBatches(at: now)
        default:
            break
        }
    }
}

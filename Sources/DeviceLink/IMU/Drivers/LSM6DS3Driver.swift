/// LSM6DS3 and LSM6DSL (and the DSM, DS3TR-C, ISM330DLC that answer 0x6A): accelerometer and
/// gyroscope at one ODR, read through the untagged FIFO, whose words follow a pattern of
/// gyroscope x, y, z then accelerometer x, y, z (kernel `st_lsm6dsx_buffer.c`).
public final class LSM6DS3Driver: IMUDriver {
    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    private let core: LSM6Core
    /// WHO_AM_I 0x69. An LSM6DS3H answers the same with a 4 KB FIFO; the watermark stays at most
    /// half of 8 KB, and an overrun is still seen in FIFO_STATUS2.
    private let isLSM6DS3: Bool
    /// Set by `configure`, written by `start`.
    private var rateCode: UInt8 = 0
    private var accelerometerBits: UInt8 = 0
    private var gyroscopeBits: UInt8 = 0

    /// Words of one pattern: gyroscope then accelerometer, three axes each.
    static let patternWords = 6
    static let patternBytes = 12
    /// The longest read i2c-dev allows, in whole patterns.
    static let maximumRead = 8192 / patternBytes * patternBytes

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
        core = LSM6Core(model: model, registers: registers, clock: clock)
        isLSM6DS3 = model.identityValues.contains(0x69)
    }

    /// FIFO words: 8 KB on the LSM6DS3, 4 KB on the LSM6DSL (kernel max_fifo_size 1365 / 682 sets
    /// of 6 bytes).
    private var capacityWords: Int { isLSM6DS3 ? 4096 : 2048 }
    /// DIFF_FIFO and FTH are 12 bits on the LSM6DS3, 11 on the LSM6DSL.
    private var countHighMask: UInt8 { isLSM6DS3 ? 0x0F : 0x07 }

    public func reset() throws(IMUError) {
        try core.reset()
        configuration = nil
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.rateHz.isFinite, request.rateHz > 0 else {
            throw .unsupported(chip: model.name, setting: "rate", reason: "\(request.rateHz) Hz")
        }
        let rate = LSM6Settings.rate(atLeast: request.rateHz, in: LSM6Settings.untaggedRates(lsm6ds3: isLSM6DS3))
        guard let accelerometer = LSM6Settings.scale(atLeast: request.accelerometerRange, in: LSM6Settings.accelerometer) else {
            throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is above its ±16 g")
        }
        guard let gyroscope = LSM6Settings.scale(atLeast: request.gyroscopeRange, in: LSM6Settings.gyroscope(smallest: 245)) else {
            throw .unsupported(chip: model.name, setting: "gyroscope range", reason: "±\(request.gyroscopeRange) °/s is above its ±2000 °/s")
        }
        let wanted = request.lowPassHz ?? rate.hz / 4
        let filter: (hz: Double, option: UInt8)
        if isLSM6DS3 {
            // BW_XL (CTRL1_XL 1:0): the anti-aliasing filter, used when CTRL4_C XL_BW_SCAL_ODR is set.
            let corners: [(hz: Double, option: UInt8)] = [(400, 0b00), (200, 0b01), (100, 0b10), (50, 0b11)]
            filter = LSM6Settings.nearest(corners, to: wanted)
            try registers.update(LSM6Register.ctrl4C, mask: 0x80, value: 0x80)
        } else {
            // LSM6DSL: the digital LPF1 at ODR/2, or ODR/4 with LPF1_BW_SEL (CTRL1_XL bit 1).
            let corners: [(hz: Double, option: UInt8)] = [(rate.hz / 2, 0b00), (rate.hz / 4, 0b10)]
            filter = LSM6Settings.nearest(corners, to: wanted)
        }
        accelerometerBits = accelerometer.code << 2 | filter.option
        gyroscopeBits = gyroscope.code << 2
        rateCode = rate.code
        try core.writeControl(accelerometer: accelerometer, accelerometerFilterBits: filter.option, gyroscope: gyroscope, rateCode: 0)

        var capacity = 0
        var watermark = 1
        try registers.write(LSM6Register.fifoControl5, LSM6Register.fifoBypass)
        if request.useFIFO {
            capacity = capacityWords / Self.patternWords
            watermark = request.watermark(capacity: capacity, rate: rate.hz)
            let threshold = watermark * Self.patternWords
            try registers.write(LSM6Register.fifoThresholdLow, UInt8(threshold & 0xFF))
            try registers.update(LSM6Register.fifoThresholdHigh, mask: countHighMask, value: UInt8(threshold >> 8))
            // Both data sets every FIFO ODR tick: decimation code 1 for gyroscope and accelerometer.
            try registers.write(LSM6Register.fifoDecimation, 0b001_001)
        }
        let chosen = IMUConfiguration(
            model: model.name, rateHz: rate.hz, accelerometerRange: accelerometer.range, gyroscopeRange: gyroscope.range,
            accelerometerLSBPerG: accelerometer.lsbPerUnit, gyroscopeLSBPerDPS: gyroscope.lsbPerUnit, lowPassHz: filter.hz,
            fifoCapacity: capacity, watermark: watermark)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw core.notConfigured("start") }
        try registers.write(LSM6Register.ctrl2G, rateCode << 4 | gyroscopeBits)
        try registers.write(LSM6Register.ctrl1XL, rateCode << 4 | accelerometerBits)
        // What the sensors output while their filters settle is corrupted (the gyroscope's for
        // 86–192 ms): waited out here, and the FIFO started after, so a start or a reconnect
        // does not feed it to the detectors.
        let settling = LSM6Settings.settlingNanoseconds(rateHz: configuration.rateHz, gyroscope: true)
        clock.sleep(nanoseconds: StartupWait.nanoseconds(startup: settling, rateHz: configuration.rateHz))
        if configuration.usesFIFO { try resetFIFO() }
    }

    /// Bypass empties the FIFO and clears its overrun; continuous mode at the ODR starts it again.
    private func resetFIFO() throws(IMUError) {
        try registers.write(LSM6Register.fifoControl5, LSM6Register.fifoBypass)
        try registers.write(LSM6Register.fifoControl5, rateCode << 3 | LSM6Register.fifoContinuous)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw core.notConfigured("drain") }
        guard configuration.usesFIFO else { return try core.readPolled(into: &readings, configuration: configuration) }

        // FIFO_STATUS1…4 in one read: unread words, flags, and the pattern position of the next word.
        // The time is taken before the read: the thread may be held up any time after the chip answers.
        let countedAt = clock.nowNanoseconds()
        let status = try registers.read(LSM6Register.fifoStatus1, count: 4)
        // And after: words that arrive from here to the check below surely came after the count.
        let answeredAt = clock.nowNanoseconds()
        let words = Int(status[0]) | Int(status[1] & countHighMask) << 8
        let pattern = Int(status[2]) | Int(status[3] & 0x03) << 8
        let empty = status[1] & 0x10 != 0
        // Bits above the count and the pattern are 0 on a real transfer (bit 3 of STATUS2 is
        // reserved on the LSM6DSL, bits 7:2 of STATUS4 on both).
        let reservedSet = status[1] & 0x0F & ~countHighMask != 0 || status[3] & 0xFC != 0
        if reservedSet || pattern >= Self.patternWords || words > capacityWords || (empty && words != 0) {
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO status \(LSM6Core.hex(status)) makes no sense")
        }
        if status[1] & 0x40 != 0 {
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overrun (\(capacityWords * 2) bytes full)")
        }

        // A drain interrupted mid-pattern leaves the next word inside one: read the rest of that
        // pattern away so gyroscope and accelerometer words are not taken for each other.
        var remaining = words
        var detail: String?
        if pattern != 0, remaining > 0 {
            let skip = min(remaining, Self.patternWords - pattern)
            _ = try registers.read(LSM6Register.fifoDataOut, count: skip * 2)
            remaining -= skip
            detail = "skipped \(skip) FIFO words to reach a pattern start"
        }
        var bytesToRead = remaining / Self.patternWords * Self.patternBytes
        let before = readings.count
        while bytesToRead > 0 {
            let chunk = min(bytesToRead, Self.maximumRead)
            let bytes = try registers.read(LSM6Register.fifoDataOut, count: chunk)
            bytes.withUnsafeBytes { raw in
                for offset in stride(from: 0, to: chunk, by: Self.patternBytes) {
                    readings.append(LSM6Core.reading(raw, gyroscopeAt: offset, accelerometerAt: offset + 6, configuration: configuration))
                }
            }
            bytesToRead -= chunk
        }
        let wordsRead = words - remaining % Self.patternWords
        if try lostDuringDrain(words: words, pattern: pattern, wordsRead: wordsRead, countedAt: countedAt, answeredAt: answeredAt,
                               configuration: configuration) {
            readings.removeSubrange(before...)
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overrun while \(wordsRead) words were read")
        }
        return IMUDrainReport(count: readings.count - before, detail: detail, partialBytes: remaining % Self.patternWords * 2)
    }

    /// Continuous mode overwrites the oldest data of a full FIFO, so one that filled after the
    /// status was read moved its read pointer: the words read were later ones, after a gap, and
    /// the pattern position read no longer held (accelerometer words taken for gyroscope).
    /// OVER_RUN is no help afterwards (it means "completely filled" and clears as words are
    /// read). Two things tell instead:
    /// - the pattern position of the next word: without a loss it is the first one advanced by
    ///   the words read; a loss of anything but whole patterns moves it, whenever it happened;
    /// - the count: without a loss the words left plus those read are the first count plus every
    ///   word that came since, so a loss shows as fewer than surely came (at 0.9 of the rate, a
    ///   slow chip, from the status's answer to this read, less one pattern), more than a
    ///   pattern short. Fullness alone would not do: a long read of a nearly full FIFO is
    ///   emptying it while words come.
    /// Whole patterns lost while the thread was held up inside the first status read (after
    /// the chip answered) escape both; those words are aligned, only later than counted.
    /// The status is read again only when the words that could have come since the count (at the
    /// rate with a quarter more for a fast chip, and two patterns of margin) fill the FIFO, so a
    /// usual drain stays at two transfers.
    private func lostDuringDrain(words: Int, pattern: Int, wordsRead: Int, countedAt: Int64, answeredAt: Int64,
                                 configuration: IMUConfiguration) throws(IMUError) -> Bool {
        let unit = Double(Self.patternWords)
        let arrivals = FIFOArrivals(rateHz: configuration.rateHz)
        let most = (arrivals.most(from: countedAt, to: clock.nowNanoseconds()) + 2) * unit
        guard Double(words) + most >= Double(capacityWords) else { return false }
        let checkedAt = clock.nowNanoseconds()
        let status = try registers.read(LSM6Register.fifoStatus1, count: 4)
        let left = Int(status[0]) | Int(status[1] & countHighMask) << 8
        let next = Int(status[2]) | Int(status[3] & 0x03) << 8
        if left > 0, next != (pattern + wordsRead) % Self.patternWords { return true }
        let surely = arrivals.surely(from: answeredAt, to: checkedAt) * unit
        return Double(words) + surely - Double(left + wordsRead) > unit
    }

    public func stop() throws(IMUError) {
        try registers.write(LSM6Register.fifoControl5, LSM6Register.fifoBypass)
        try registers.write(LSM6Register.ctrl1XL, accelerometerBits)
        try registers.write(LSM6Register.ctrl2G, gyroscopeBits)
    }
}

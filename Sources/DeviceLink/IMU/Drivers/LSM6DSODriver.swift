/// LSM6DSO and LSM6DSOX: the LSM6DS3's control registers and sensitivities with a tagged FIFO,
/// where each 7-byte word says which sensor it holds (tag = byte >> 3: 0x01 gyroscope,
/// 0x02 accelerometer; kernel `st_lsm6dsx_read_tagged_fifo`) and its time slot (TAG_CNT, bits
/// 2:1, counting slots modulo 4).
public final class LSM6DSODriver: IMUDriver {
    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    private let core: LSM6Core
    private var rateCode: UInt8 = 0
    private var accelerometerBits: UInt8 = 0
    private var gyroscopeBits: UInt8 = 0
    /// The word read last and not yet paired: a reading needs both sensors' words of one time
    /// slot, and the other may come in the next drain.
    private var pendingWord: (sensor: UInt8, slot: UInt8, vector: SIMD3<Float>)?

    static let wordBytes = 7
    /// 3 KB of data: 512 words (kernel max_fifo_size for the LSM6DSO/DSOX).
    static let capacityWords = 512
    static let maximumRead = 8192 / wordBytes * wordBytes
    static let gyroscopeTag: UInt8 = 0x01
    static let accelerometerTag: UInt8 = 0x02

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
        core = LSM6Core(model: model, registers: registers, clock: clock)
    }

    public func reset() throws(IMUError) {
        try core.reset()
        configuration = nil
        pendingWord = nil
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.rateHz.isFinite, request.rateHz > 0 else {
            throw .unsupported(chip: model.name, setting: "rate", reason: "\(request.rateHz) Hz")
        }
        let rate = LSM6Settings.rate(atLeast: request.rateHz, in: LSM6Settings.taggedRates)
        guard let accelerometer = LSM6Settings.scale(atLeast: request.accelerometerRange, in: LSM6Settings.accelerometer) else {
            throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is above its ±16 g")
        }
        guard let gyroscope = LSM6Settings.scale(atLeast: request.gyroscopeRange, in: LSM6Settings.gyroscope(smallest: 250)) else {
            throw .unsupported(chip: model.name, setting: "gyroscope range", reason: "±\(request.gyroscopeRange) °/s is above its ±2000 °/s")
        }
        // LPF1 alone gives ODR/2; LPF2 (CTRL1_XL bit 1) gives ODR/4 … ODR/800 by CTRL8_XL HPCF_XL
        // 7:5 (LSM6DSO data sheet; ST's lsm6dso_reg.h LSM6DSO_LP_ODR_DIV_*).
        let divisors: [Double] = [4, 10, 20, 45, 100, 200, 400, 800]
        let options: [(hz: Double, option: UInt8?)] = [(rate.hz / 2, nil)] + divisors.enumerated().map { (rate.hz / $1, UInt8($0)) }
        let filter = LSM6Settings.nearest(options, to: request.lowPassHz ?? rate.hz / 4)
        let filterBits: UInt8 = filter.option == nil ? 0 : 0b10
        try registers.update(LSM6Register.ctrl8XL, mask: 0xE0, value: (filter.option ?? 0) << 5)
        accelerometerBits = accelerometer.code << 2 | filterBits
        gyroscopeBits = gyroscope.code << 2
        rateCode = rate.code
        try core.writeControl(accelerometer: accelerometer, accelerometerFilterBits: filterBits, gyroscope: gyroscope, rateCode: 0)

        var capacity = 0
        var watermark = 1
        try registers.write(LSM6Register.tagFIFOMode, LSM6Register.fifoBypass)
        if request.useFIFO {
            capacity = Self.capacityWords / 2
            watermark = request.watermark(capacity: capacity, rate: rate.hz)
            let words = watermark * 2
            try registers.write(LSM6Register.tagWatermarkLow, UInt8(words & 0xFF))
            try registers.update(LSM6Register.tagWatermarkHigh, mask: 0x01, value: UInt8(words >> 8))
            // Both sensors batched at their ODR, so each accelerometer word has a gyroscope word.
            try registers.write(LSM6Register.tagBatchRate, rate.code << 4 | rate.code)
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
        if configuration.usesFIFO { try resetFIFO() }
    }

    /// Bypass empties the FIFO and clears its overrun; continuous mode starts it again.
    private func resetFIFO() throws(IMUError) {
        pendingWord = nil
        try registers.write(LSM6Register.tagFIFOMode, LSM6Register.fifoBypass)
        try registers.write(LSM6Register.tagFIFOMode, LSM6Register.fifoContinuous)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw core.notConfigured("drain") }
        guard configuration.usesFIFO else { return try core.readPolled(into: &readings, configuration: configuration) }

        // The time is taken before the read: the thread may be held up any time after the chip answers.
        let countedAt = clock.nowNanoseconds()
        let status = try registers.read(LSM6Register.fifoStatus1, count: 2)
        let words = Int(status[0]) | Int(status[1] & 0x03) << 8
        // Bit 2 of FIFO_STATUS2 is reserved (0).
        if words > Self.capacityWords || status[1] & 0x04 != 0 {
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO status \(LSM6Core.hex(status)) makes no sense (\(words) words of \(Self.capacityWords))")
        }
        // FIFO_OVR_IA (bit 6), or FIFO_OVR_LATCHED (bit 3) when the overrun has passed.
        if status[1] & 0x48 != 0 {
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overrun (\(Self.capacityWords) words full)")
        }

        let before = readings.count
        var bytesToRead = words * Self.wordBytes
        while bytesToRead > 0 {
            let chunk = min(bytesToRead, Self.maximumRead)
            let bytes = try registers.read(LSM6Register.tagDataOut, count: chunk)
            bytes.withUnsafeBytes { raw in
                for offset in stride(from: 0, to: chunk, by: Self.wordBytes) {
                    take(raw, at: offset, configuration: configuration, into: &readings)
                }
            }
            bytesToRead -= chunk
        }
        if try overrunDuringDrain(words: words, since: countedAt, configuration: configuration) {
            readings.removeSubrange(before...)
            try resetFIFO()
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overrun while \(words) words were read")
        }
        return IMUDrainReport(count: readings.count - before, partialBytes: pendingWord == nil ? 0 : Self.wordBytes)
    }

    /// A full FIFO overwrites its oldest whole words, and their tags keep every word read
    /// readable and paired; but if that happened after the status was read, the words read are
    /// not those counted: they follow a gap and are later than their place in the stream says.
    /// FIFO_OVR_LATCHED, cleared by the status read before, says whether it happened since; the
    /// batch is then a break, not motion continuing the last. It is read only when the time since
    /// the status was long enough to fill the FIFO at the rate, with a quarter more for a fast
    /// chip and two slots of margin, so a usual drain stays at two transfers.
    private func overrunDuringDrain(words: Int, since countedAt: Int64, configuration: IMUConfiguration) throws(IMUError) -> Bool {
        let arrived = (FIFOArrivals(rateHz: configuration.rateHz).most(from: countedAt, to: clock.nowNanoseconds()) + 2) * 2
        guard Double(words) + arrived >= Double(Self.capacityWords) else { return false }
        return try registers.read(LSM6Register.fifoStatus2) & 0x48 != 0
    }

    /// Pairs each word with the other sensor's word of the same time slot, in whichever order
    /// the chip wrote them (the data sheet does not fix it). A word whose partner never comes
    /// (a drain cut short, a sensor that started later) is dropped when the next word is not
    /// its partner, so the pairs realign at the next slot; other tags (timestamp, temperature)
    /// are not batched and are skipped.
    private func take(_ raw: UnsafeRawBufferPointer, at offset: Int, configuration: IMUConfiguration, into readings: inout [IMUReading]) {
        let sensor = raw[offset] >> 3
        let slot = raw[offset] >> 1 & 0x03
        let isGyroscope = sensor == Self.gyroscopeTag
        guard isGyroscope || sensor == Self.accelerometerTag else { return }
        let vector = LSM6Core.vector(raw, at: offset + 1,
                                     lsbPerUnit: isGyroscope ? configuration.gyroscopeLSBPerDPS : configuration.accelerometerLSBPerG)
        guard let partner = pendingWord, partner.sensor != sensor, partner.slot == slot else {
            pendingWord = (sensor, slot, vector)
            return
        }
        readings.append(IMUReading(acceleration: isGyroscope ? partner.vector : vector, angularRate: isGyroscope ? vector : partner.vector))
        pendingWord = nil
    }

    public func stop() throws(IMUError) {
        pendingWord = nil
        try registers.write(LSM6Register.tagFIFOMode, LSM6Register.fifoBypass)
        try registers.write(LSM6Register.ctrl1XL, accelerometerBits)
        try registers.write(LSM6Register.ctrl2G, gyroscopeBits)
    }
}

/// Analog Devices ADXL345 (±2…16 g, SisFall's accelerometer) and ADXL375 (±200 g, for crashes):
/// accelerometers only, with a 32-entry FIFO in stream mode. Each 6-byte read of DATAX0…DATAZ1
/// pops one entry, so a drain is one read per entry (the part has no FIFO port to burst from);
/// at 200 Hz with a 4-entry watermark that is 50 short reads a second. The ADXL345 has no soft
/// reset, so `reset` writes the power-on values of what the driver uses.
public final class ADXL345Driver: IMUDriver {
    private typealias R = ADXL345Register

    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 6, alignment: 2)

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
    }

    deinit { buffer.deallocate() }

    var isADXL375: Bool { model.family == .adxl375 }

    public func reset() throws(IMUError) {
        configuration = nil
        try registers.checkIdentity(of: model)
        // Standby, FIFO bypassed (which empties it), interrupts off, power-on format and rate.
        try registers.write(R.powerControl, 0)
        try registers.write(R.fifoControl, R.bypassMode)
        try registers.write(R.interruptEnable, 0)
        try registers.write(R.dataFormat, isADXL375 ? 0x0B : 0)
        try registers.write(R.bandwidthRate, 0x0A)
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.rateHz > 0, request.rateHz <= 3200 * 1.0001 else {
            throw .unsupported(chip: model.name, setting: "rate", reason: "\(request.rateHz) Hz is outside 6.25 to 3200 Hz")
        }
        // The nearest rate at or above the request: 3200 / 2^n Hz.
        let code = R.rateCodes.first { R.rate(code: $0) >= request.rateHz * 0.9999 } ?? R.rateCodes.upperBound
        let rate = R.rate(code: code)
        let range: Float
        let lsbPerG: Float
        let format: UInt8
        if isADXL375 {
            guard request.accelerometerRange <= 200 else {
                throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is beyond ±200 g")
            }
            // ADXL375 data sheet: DATA_FORMAT bits 1:0 must be 1s and bit 3 set; 49 mg/LSB.
            (range, lsbPerG, format) = (200, 1 / 0.049, 0x0B)
        } else {
            guard let rangeCode = [Float(2), 4, 8, 16].firstIndex(where: { $0 >= request.accelerometerRange }) else {
                throw .unsupported(chip: model.name, setting: "accelerometer range", reason: "±\(request.accelerometerRange) g is beyond ±16 g")
            }
            // FULL_RES: 3.9 mg/LSB (256 LSB/g typical) at every range.
            (range, lsbPerG, format) = (Float(2 << rangeCode), 256, R.fullResolution | UInt8(rangeCode))
        }
        try registers.write(R.powerControl, 0)
        try registers.write(R.bandwidthRate, code)
        try registers.write(R.dataFormat, format)
        let capacity = request.useFIFO ? R.fifoEntries : 0
        // The FIFO_CTL samples field is 5 bits: a watermark of at most 31.
        let watermark = request.useFIFO ? min(31, request.watermark(capacity: capacity, rate: rate)) : 1
        try registers.write(R.fifoControl, R.bypassMode)
        try registers.write(R.interruptEnable, request.useFIFO ? R.watermark | R.overrun : R.dataReady)
        let chosen = IMUConfiguration(
            model: model.name, rateHz: rate, accelerometerRange: range, gyroscopeRange: 0, accelerometerLSBPerG: lsbPerG,
            gyroscopeLSBPerDPS: 0, lowPassHz: rate / 2, fifoCapacity: capacity, watermark: watermark)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw notConfigured("started") }
        if configuration.usesFIFO { try registers.write(R.fifoControl, R.streamMode | UInt8(configuration.watermark)) }
        try registers.write(R.powerControl, R.measure)
        _ = try registers.read(R.interruptSource)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw notConfigured("drained") }
        let source = try registers.read(R.interruptSource)
        guard configuration.usesFIFO else {
            guard source & R.dataReady != 0 else { return IMUDrainReport(count: 0) }
            readings.append(try readEntry(configuration))
            return IMUDrainReport(count: 1)
        }
        let entries = Int(try registers.read(R.fifoStatus) & 0x3F)
        if entries > R.fifoEntries {
            try resetFIFO(configuration)
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO_STATUS says \(entries) entries of \(R.fifoEntries)")
        }
        // Stream mode keeps the newest 32: samples were lost, though what is left is aligned; a
        // break is a break, so it is reset and recorded rather than stitched. A full FIFO may
        // have overrun after INT_SOURCE was read (the thread held up between the two reads), so
        // INT_SOURCE is asked again then; reading it clears nothing the drain needs.
        var overrun = source & R.overrun != 0
        if !overrun, entries >= R.fifoEntries { overrun = try registers.read(R.interruptSource) & R.overrun != 0 }
        if overrun {
            try resetFIFO(configuration)
            return IMUDrainReport(count: 0, overflowed: true, detail: "FIFO overrun")
        }
        readings.reserveCapacity(readings.count + entries)
        for _ in 0..<entries { readings.append(try readEntry(configuration)) }
        return IMUDrainReport(count: entries)
    }

    public func stop() throws(IMUError) {
        try registers.write(R.powerControl, 0)
        try registers.write(R.fifoControl, R.bypassMode)
    }

    /// One 6-byte read of DATAX0…DATAZ1, little-endian: pops one FIFO entry.
    private func readEntry(_ configuration: IMUConfiguration) throws(IMUError) -> IMUReading {
        try registers.read(R.dataX0, into: buffer)
        let bytes = UnsafeRawBufferPointer(buffer)
        let counts = SIMD3<Float>(Float(ChipRegisters.littleEndian(bytes, at: 0)), Float(ChipRegisters.littleEndian(bytes, at: 2)),
                                  Float(ChipRegisters.littleEndian(bytes, at: 4)))
        return IMUReading(acceleration: counts / configuration.accelerometerLSBPerG)
    }

    /// Bypass empties the FIFO and clears the overrun; stream mode again with the watermark.
    private func resetFIFO(_ configuration: IMUConfiguration) throws(IMUError) {
        try registers.write(R.fifoControl, R.bypassMode)
        try registers.write(R.fifoControl, R.streamMode | UInt8(configuration.watermark))
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

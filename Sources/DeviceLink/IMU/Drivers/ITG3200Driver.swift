/// InvenSense ITG-3200: a gyroscope only (±2000 °/s, SisFall's gyroscope), with no FIFO, so it is
/// polled: RAW_DATA_RDY, then the three big-endian rates in one read. Its rate is 1 kHz over
/// 1 + SMPLRT_DIV with the low-pass filter on.
public final class ITG3200Driver: IMUDriver {
    private typealias R = ITG3200Register

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

    public func reset() throws(IMUError) {
        configuration = nil
        try registers.checkIdentity(of: model)
        try registers.write(R.powerManagement, R.deviceReset)
        // Start-up time of the gyroscopes from sleep is 50 ms (PS-ITG-3200A table 2.2).
        clock.sleep(nanoseconds: 50_000_000)
        try registers.write(R.powerManagement, R.clockPLLX)
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        guard request.gyroscopeRange <= 2000 else {
            throw .unsupported(chip: model.name, setting: "gyroscope range", reason: "±\(request.gyroscopeRange) °/s is beyond ±2000 °/s")
        }
        let divider = try InvenSenseSettings.divider(for: request.rateHz, baseHz: 1000, maximum: 255, chip: model.name)
        let rate = 1000 / Double(1 + divider)
        let filter = InvenSenseSettings.nearest(R.lowPassCorners, to: request.lowPassHz ?? rate / 4)
        try registers.write(R.sampleRateDivider, UInt8(divider))
        try registers.write(R.dlpfFullScale, R.fullScale2000 | UInt8(filter + 1))
        try registers.write(R.interruptConfig, R.rawReady)
        let chosen = IMUConfiguration(
            model: model.name, rateHz: rate, accelerometerRange: 0, gyroscopeRange: 2000, accelerometerLSBPerG: 0,
            gyroscopeLSBPerDPS: R.lsbPerDPS, lowPassHz: R.lowPassCorners[filter], fifoCapacity: 0, watermark: 1)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard configuration != nil else { throw notConfigured("started") }
        try registers.write(R.powerManagement, R.clockPLLX)
        _ = try registers.read(R.interruptStatus)
    }

    /// One reading when RAW_DATA_RDY is set (reading INT_STATUS clears it), none otherwise.
    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard configuration != nil else { throw notConfigured("drained") }
        guard try registers.read(R.interruptStatus) & R.rawReady != 0 else { return IMUDrainReport(count: 0) }
        readings.append(IMUReading(acceleration: .zero, angularRate: try latestRate()))
        return IMUDrainReport(count: 1)
    }

    /// The newest angular rate in the data registers, °/s, whether or not it was read before:
    /// what the ADXL345 + ITG-3200 pair samples at each drain.
    func latestRate() throws(IMUError) -> SIMD3<Float> {
        try registers.read(R.gyroXOutH, into: buffer)
        let bytes = UnsafeRawBufferPointer(buffer)
        return SIMD3(Float(ChipRegisters.bigEndian(bytes, at: 0)), Float(ChipRegisters.bigEndian(bytes, at: 2)),
                     Float(ChipRegisters.bigEndian(bytes, at: 4))) / R.lsbPerDPS
    }

    public func stop() throws(IMUError) {
        try registers.write(R.powerManagement, R.sleep | R.clockPLLX)
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

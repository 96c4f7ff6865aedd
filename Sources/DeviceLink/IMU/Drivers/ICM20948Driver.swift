/// The TDK InvenSense ICM-20948: the MPU family's sensors behind banked registers (REG_BANK_SEL in
/// every bank). Bank 0 holds power, FIFO, status and data; bank 2 the rates, ranges and filters.
/// The driver keeps bank 0 selected outside `configure`, so a drain never switches banks. Its
/// AK09916 magnetometer and the temperature are not read (the streamer wants acceleration and
/// rotation); the DMP stays off.
public final class ICM20948Driver: IMUDriver {
    private typealias R = ICM20948Register

    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    /// The bank the chip has selected, nil when unknown (before reset, after a failed switch).
    private var bank: UInt8?
    private let buffer: UnsafeMutableRawBufferPointer

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
        buffer = .allocate(byteCount: R.fifoBytes, alignment: 2)
    }

    deinit { buffer.deallocate() }

    public func reset() throws(IMUError) {
        configuration = nil
        // A daemon that died mid-configure may have left bank 2 selected; WHO_AM_I is in bank 0.
        bank = nil
        try select(bank: 0)
        try registers.checkIdentity(of: model)
        try registers.write(R.powerManagement1, R.deviceReset)
        // Libraries wait 10-50 ms after DEVICE_RESET; 100 ms as for the MPU family.
        clock.sleep(nanoseconds: 100_000_000)
        // The reset selected bank 0 again.
        bank = 0
        let power = try registers.read(R.powerManagement1)
        guard power & R.deviceReset == 0 else {
            throw .notReady(chip: model.name, bus: bus.name, address: address, detail: "is still in reset (PWR_MGMT_1 = \(InvenSenseSettings.hex(Int(power))))")
        }
        try registers.write(R.powerManagement1, R.clockAuto)
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        let chip = model.name
        // One divider for both sensors (the gyroscope's is 8 bits), so each FIFO record pairs
        // samples of one instant.
        let divider = try InvenSenseSettings.divider(for: request.rateHz, baseHz: R.baseRateHz, maximum: 255, chip: chip)
        let rate = R.baseRateHz / Double(1 + divider)
        let accelCode = try InvenSenseSettings.rangeCode(for: request.accelerometerRange, in: InvenSenseSettings.accelerometerRanges,
                                                         chip: chip, setting: "accelerometer range")
        let gyroCode = try InvenSenseSettings.rangeCode(for: request.gyroscopeRange, in: InvenSenseSettings.gyroscopeRanges,
                                                        chip: chip, setting: "gyroscope range")
        let filter = InvenSenseSettings.nearest(R.lowPassCorners, to: request.lowPassHz ?? rate / 4)
        // DLPFCFG 1...6 with FCHOICE 1: the divider only applies with the DLPF on.
        let dlpf = UInt8(filter + 1) << 3

        try select(bank: 0)
        try registers.write(R.userControl, 0)
        try registers.write(R.powerManagement2, R.disableAll)
        try select(bank: 2)
        try write(R.gyroSampleRateDivider, [UInt8(divider), dlpf | UInt8(gyroCode) << 1 | R.fchoice])
        try registers.write(R.odrAlign, 1)
        try write(R.accelSampleRateDivider1, [UInt8(divider >> 8), UInt8(divider & 0xFF)])
        try registers.write(R.accelConfig, dlpf | UInt8(accelCode) << 1 | R.fchoice)
        try select(bank: 0)
        // FIFO_EN_1 (no slaves) and FIFO_EN_2; FIFO_RST left alone; FIFO_MODE stream (a full FIFO
        // overwrites its oldest bytes, like the MPU family's); one FIFO for all sensors.
        try write(R.fifoEnable1, [0, request.useFIFO ? R.fifoAccel | R.fifoGyroXYZ : 0])
        try registers.write(R.fifoMode, 0)
        try registers.write(R.fifoConfig, 0)
        // INT_ENABLE_1 (data ready) and INT_ENABLE_2 (FIFO overflow).
        try write(R.intEnable1, request.useFIFO ? [0, R.fifoOverflowBits] : [R.rawDataReady, 0])

        let capacity = request.useFIFO ? InvenSenseSettings.usableRecords(fifoBytes: R.fifoBytes) : 0
        let chosen = IMUConfiguration(
            model: chip, rateHz: rate,
            accelerometerRange: InvenSenseSettings.accelerometerRanges[accelCode], gyroscopeRange: InvenSenseSettings.gyroscopeRanges[gyroCode],
            accelerometerLSBPerG: InvenSenseSettings.accelerometerLSBPerG[accelCode], gyroscopeLSBPerDPS: InvenSenseSettings.gyroscopeLSBPerDPS[gyroCode],
            lowPassHz: R.lowPassCorners[filter], fifoCapacity: capacity,
            watermark: request.useFIFO ? request.watermark(capacity: capacity, rate: rate) : 1)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw notConfigured("started") }
        try select(bank: 0)
        // PWR_MGMT_1 (awake, auto clock) and PWR_MGMT_2 (both sensors on) in one write.
        try write(R.powerManagement1, [R.clockAuto, 0])
        // Until the gyroscope has started its output is not motion (zeros or drift, which read as
        // free fall without rotation): waited out here, and the FIFO started after.
        clock.sleep(nanoseconds: StartupWait.nanoseconds(startup: R.gyroscopeStartupNanoseconds, rateHz: configuration.rateHz))
        if configuration.usesFIFO {
            try resetFIFO()
            try registers.write(R.userControl, R.userFIFOEnable)
        }
        // INT_STATUS_1 and _2 clear on read: drop flags left from before.
        _ = try registers.read(R.intStatus1, count: 2)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw notConfigured("drained") }
        try select(bank: 0)
        guard configuration.usesFIFO else { return try drainDataRegisters(into: &readings, configuration) }

        let status = try registers.read(R.intStatus2)
        let countBytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<2])
        // Taken before the count is read: the thread may be held up any time after the chip answers.
        let countedAt = clock.nowNanoseconds()
        try registers.read(R.fifoCountH, into: countBytes)
        let raw = Int(countBytes[0]) << 8 | Int(countBytes[1])
        // A 13-bit count; the top three bits are reserved.
        let count = raw & 0x1FFF
        return try InvenSenseFIFO.drain(
            count: count, overflowFlag: status & R.fifoOverflowBits != 0, fifoBytes: R.fifoBytes, buffer: buffer, configuration: configuration,
            into: &readings, readPort: { (data) throws(IMUError) in try registers.read(R.fifoReadWrite, into: data) },
            countedAt: countedAt, clock: clock, overflowedSince: { () throws(IMUError) in try registers.read(R.intStatus2) & R.fifoOverflowBits != 0 }, reset: resetFIFO)
    }

    public func stop() throws(IMUError) {
        try select(bank: 0)
        try registers.write(R.userControl, 0)
        try registers.write(R.powerManagement1, R.sleep | R.clockAuto)
    }

    /// Polled: RAW_DATA_0_RDY_INT (cleared by this read), then accelerometer and gyroscope in one
    /// 12-byte read.
    private func drainDataRegisters(into readings: inout [IMUReading], _ configuration: IMUConfiguration) throws(IMUError) -> IMUDrainReport {
        guard try registers.read(R.intStatus1) & R.rawDataReady != 0 else { return IMUDrainReport(count: 0) }
        let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<12])
        try registers.read(R.accelXOutH, into: data)
        readings.append(InvenSenseSettings.reading(UnsafeRawBufferPointer(data), at: 0, gyroOffset: 6,
                                                   lsbPerG: configuration.accelerometerLSBPerG, lsbPerDPS: configuration.gyroscopeLSBPerDPS))
        return IMUDrainReport(count: 1)
    }

    /// Sets then releases FIFO_RESET, leaving the unused FIFOs 1-4 held, as InvenSense's example
    /// code does (0x1F then 0x1E; SparkFun `ICM_20948_reset_FIFO`).
    private func resetFIFO() throws(IMUError) {
        try registers.write(R.fifoReset, 0x1F)
        try registers.write(R.fifoReset, 0x1E)
    }

    private func select(bank wanted: UInt8) throws(IMUError) {
        guard bank != wanted else { return }
        bank = nil
        try registers.write(R.bankSelect, wanted << 4)
        bank = wanted
    }

    private func write(_ register: UInt8, _ bytes: [UInt8]) throws(IMUError) {
        do { try bus.write(address: address, register: register, bytes: bytes) } catch { throw .bus(error) }
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

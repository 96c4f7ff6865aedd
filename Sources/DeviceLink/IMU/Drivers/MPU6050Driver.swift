/// The InvenSense MPU family: MPU-6050/6000/9150 (`.mpu6050`: 1 KB FIFO, one DLPF for both
/// sensors) and MPU-6500/9250/9255 with the clones sold as MPU-6050 (`.mpu6500`: 512 B FIFO,
/// ACCEL_CONFIG_2 for the accelerometer's filter). It follows the Linux driver
/// (drivers/iio/imu/inv_mpu6050): PLL clock, 1 kHz internal rate with the DLPF on, FIFO records
/// of accelerometer and gyroscope, reset of a FIFO that is nearly full.
public final class MPU6050Driver: IMUDriver {
    private typealias R = MPU6050Register

    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock
    private let fifoBytes: Int
    /// One buffer for every drain: a FIFO's worth of bytes, never reallocated on the hot path.
    private let buffer: UnsafeMutableRawBufferPointer

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
        fifoBytes = R.fifoBytes(model.family)
        buffer = .allocate(byteCount: fifoBytes, alignment: 2)
    }

    deinit { buffer.deallocate() }

    public func reset() throws(IMUError) {
        configuration = nil
        // Identity first: a different chip answering here must not get a reset byte.
        try registers.checkIdentity(of: model)
        try registers.write(R.powerManagement1, R.deviceReset)
        // The kernel waits INV_MPU6050_POWER_UP_TIME (100 ms) after H_RESET.
        clock.sleep(nanoseconds: 100_000_000)
        let power = try registers.read(R.powerManagement1)
        guard power & R.deviceReset == 0 else {
            throw .notReady(chip: model.name, bus: bus.name, address: address, detail: "is still in reset (PWR_MGMT_1 = \(InvenSenseSettings.hex(Int(power))))")
        }
        // Awake on the PLL; both sensors stay off (PWR_MGMT_2) until configure and start.
        try registers.write(R.powerManagement1, R.clockPLL)
    }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        let chip = model.name
        let divider = try InvenSenseSettings.divider(for: request.rateHz, baseHz: 1000, maximum: 255, chip: chip)
        let rate = 1000 / Double(1 + divider)
        let accelCode = try InvenSenseSettings.rangeCode(for: request.accelerometerRange, in: InvenSenseSettings.accelerometerRanges,
                                                         chip: chip, setting: "accelerometer range")
        let gyroCode = try InvenSenseSettings.rangeCode(for: request.gyroscopeRange, in: InvenSenseSettings.gyroscopeRanges,
                                                        chip: chip, setting: "gyroscope range")
        let corners = R.lowPassCorners(model.family)
        let filter = InvenSenseSettings.nearest(corners, to: request.lowPassHz ?? rate / 4)
        // DLPF_CFG 1...6: 0 and 7 would run the gyroscope at 8 kHz and break the 1 kHz divider.
        let dlpf = UInt8(filter + 1)

        // Sensors in standby and the FIFO off while the settings change.
        try registers.write(R.userControl, 0)
        try registers.write(R.powerManagement2, R.standbyAll)
        // SMPLRT_DIV, CONFIG (FIFO_MODE 0: a full FIFO overwrites its oldest bytes, as the kernel
        // runs it), GYRO_CONFIG (FCHOICE_B 0), ACCEL_CONFIG and, on the 6500, ACCEL_CONFIG_2
        // (ACCEL_FCHOICE_B 0, A_DLPF_CFG) are consecutive: one write.
        var settings: [UInt8] = [UInt8(divider), dlpf, UInt8(gyroCode) << 3, UInt8(accelCode) << 3]
        if model.family == .mpu6500 { settings.append(dlpf) }
        do { try bus.write(address: address, register: R.sampleRateDivider, bytes: settings) } catch { throw .bus(error) }
        try registers.write(R.fifoEnable, request.useFIFO ? R.fifoAccel | R.fifoGyroX | R.fifoGyroY | R.fifoGyroZ : 0)
        try registers.write(R.intEnable, request.useFIFO ? R.fifoOverflow : R.rawDataReady)

        let capacity = request.useFIFO ? InvenSenseSettings.usableRecords(fifoBytes: fifoBytes) : 0
        let chosen = IMUConfiguration(
            model: chip, rateHz: rate,
            accelerometerRange: InvenSenseSettings.accelerometerRanges[accelCode], gyroscopeRange: InvenSenseSettings.gyroscopeRanges[gyroCode],
            accelerometerLSBPerG: InvenSenseSettings.accelerometerLSBPerG[accelCode], gyroscopeLSBPerDPS: InvenSenseSettings.gyroscopeLSBPerDPS[gyroCode],
            lowPassHz: corners[filter], fifoCapacity: capacity,
            watermark: request.useFIFO ? request.watermark(capacity: capacity, rate: rate) : 1)
        configuration = chosen
        return chosen
    }

    public func start() throws(IMUError) {
        guard let configuration else { throw notConfigured("started") }
        // PWR_MGMT_1 (awake, PLL) and PWR_MGMT_2 (every axis on) in one write.
        do { try bus.write(address: address, register: R.powerManagement1, bytes: [R.clockPLL, 0]) } catch { throw .bus(error) }
        // The gyroscope's output is not valid until it has started (the accelerometer's sooner):
        // what the FIFO took meanwhile is emptied by the reset below, as the kernel waits too.
        clock.sleep(nanoseconds: R.gyroscopeStartupNanoseconds(model.family))
        if configuration.usesFIFO { try resetFIFO() }
        // Reading INT_STATUS clears an overflow or data-ready flag left from before.
        _ = try registers.read(R.intStatus)
    }

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport {
        guard let configuration else { throw notConfigured("drained") }
        guard configuration.usesFIFO else { return try drainDataRegisters(into: &readings, configuration) }

        let status = try registers.read(R.intStatus)
        let countBytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<2])
        // Taken before the count is read: the thread may be held up any time after the chip answers.
        let countedAt = clock.nowNanoseconds()
        try registers.read(R.fifoCountH, into: countBytes)
        let count = Int(countBytes[0]) << 8 | Int(countBytes[1])
        return try InvenSenseFIFO.drain(
            count: count, overflowFlag: status & R.fifoOverflow != 0, fifoBytes: fifoBytes, buffer: buffer, configuration: configuration,
            into: &readings, readPort: { (data) throws(IMUError) in try registers.read(R.fifoReadWrite, into: data) },
            countedAt: countedAt, clock: clock, overflowedSince: { () throws(IMUError) in try registers.read(R.intStatus) & R.fifoOverflow != 0 }, reset: resetFIFO)
    }

    public func stop() throws(IMUError) {
        try registers.write(R.userControl, 0)
        try registers.write(R.powerManagement1, R.sleep | R.clockPLL)
    }

    /// Polled: RAW_DATA_RDY (cleared by this read), then the 14 data bytes in one read.
    private func drainDataRegisters(into readings: inout [IMUReading], _ configuration: IMUConfiguration) throws(IMUError) -> IMUDrainReport {
        guard try registers.read(R.intStatus) & R.rawDataReady != 0 else { return IMUDrainReport(count: 0) }
        let data = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<14])
        try registers.read(R.accelXOutH, into: data)
        // Accelerometer at 0, temperature at 6, gyroscope at 8.
        readings.append(InvenSenseSettings.reading(UnsafeRawBufferPointer(data), at: 0, gyroOffset: 8,
                                                   lsbPerG: configuration.accelerometerLSBPerG, lsbPerDPS: configuration.gyroscopeLSBPerDPS))
        return IMUDrainReport(count: 1)
    }

    /// FIFO off and emptied, then on again (kernel `inv_reset_fifo`).
    private func resetFIFO() throws(IMUError) {
        try registers.write(R.userControl, R.userFIFOReset)
        try registers.write(R.userControl, R.userFIFOEnable)
    }

    private func notConfigured(_ what: String) -> IMUError {
        .notReady(chip: model.name, bus: bus.name, address: address, detail: "\(what) before configure")
    }
}

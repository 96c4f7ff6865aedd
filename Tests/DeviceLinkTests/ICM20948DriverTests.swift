import Testing
@testable import DeviceLink

/// The ICM-20948 driver against its banked register-level simulator. Addresses and banks are the
/// data sheet's numbers, written out.
@Suite struct ICM20948DriverTests {
    struct SteadyMotion: SimulatedMotion {
        var acceleration: SIMD3<Float>
        var angularRate: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    /// A different value every sample, so skipped, repeated or misaligned records show.
    struct RampMotion: SimulatedMotion {
        static func value(atSeconds seconds: Double) -> IMUReading {
            let x = Float(seconds.truncatingRemainder(dividingBy: 8))
            return IMUReading(acceleration: SIMD3(x, -0.25, 1), angularRate: SIMD3(100 * x, -50, 12.5))
        }
        func reading(atSeconds seconds: Double) -> IMUReading { Self.value(atSeconds: seconds) }
    }

    static let model = IMUModel.first(of: .icm20948)!
    static let accelLSB: [Float] = [16384, 8192, 4096, 2048]
    static let gyroLSB: [Float] = [131, 65.5, 32.8, 16.4]
    /// 1.125 kHz / (1 + 5): the rate nearest to a 200 Hz request (divider 4 would give 225 Hz).
    static let rate = 187.5
    /// The periods `start()` waits for the gyroscope's start-up, by which every sample after it
    /// is later.
    static let startPeriods = startPeriods(rate: rate)

    static func startPeriods(rate: Double) -> Double {
        (Double(StartupWait.nanoseconds(startup: ICM20948Register.gyroscopeStartupNanoseconds, rateHz: rate)) / 1e9 * rate).rounded(.down)
    }

    struct Rig {
        let clock: ManualIMUClock
        let bus: SimulatedI2CBus
        let chip: SimulatedICM20948
        let driver: ICM20948Driver
        let address: UInt8

        init(motion: any SimulatedMotion = RampMotion()) throws {
            clock = ManualIMUClock()
            bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
            address = SimulatedIMUBoard.attach(ICM20948DriverTests.model, to: bus, motion: motion)
            chip = try #require(bus.device(at: address) as? SimulatedICM20948)
            driver = ICM20948Driver(model: ICM20948DriverTests.model, bus: bus, address: address, clock: clock)
        }

        func register(_ address: UInt8, bank: Int = 0) -> UInt8 { chip.register(address, bank: bank) }

        func advance(periods: Double, rate: Double = ICM20948DriverTests.rate) {
            // Rounded up, so whole periods are never a nanosecond short of the next sample.
            clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded(.up)))
        }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }

        func running(_ request: IMURequest = IMURequest()) throws(IMUError) -> IMUConfiguration {
            try driver.reset()
            let configuration = try driver.configure(request)
            try driver.start()
            return configuration
        }
    }

    static func expectClose(_ reading: IMUReading, _ expected: IMUReading, lsbPerG: Float = 2048, lsbPerDPS: Float = 16.4,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for axis in 0..<3 {
            #expect(abs(reading.acceleration[axis] - expected.acceleration[axis]) <= 1 / lsbPerG, "accel \(axis)", sourceLocation: sourceLocation)
            #expect(abs(reading.angularRate[axis] - expected.angularRate[axis]) <= 1 / lsbPerDPS, "gyro \(axis)", sourceLocation: sourceLocation)
        }
    }

    @Test func resetSelectsBankZeroAndWakesThePart() throws {
        let rig = try Rig()
        // Left in bank 2 with a divider set, as a daemon that died mid-configure would leave it.
        try rig.bus.writeRegister(address: rig.address, register: 0x7F, value: 0x20)
        try rig.bus.writeRegister(address: rig.address, register: 0x00, value: 9)
        try rig.driver.reset()
        #expect(rig.chip.selectedBank == 0)
        #expect(rig.register(0x06) == 0x01, "awake, auto clock")
        #expect(rig.register(0x00, bank: 2) == 0, "DEVICE_RESET restored bank 2")
        #expect(rig.register(0x00) == 0xEA)
    }

    @Test func aDifferentChipIsRefused() throws {
        let other = try #require(IMUModel.first(of: .bmi160))
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        bus.attach(SimulatedBMI160(model: other, clock: clock), at: 0x68)
        let driver = ICM20948Driver(model: Self.model, bus: bus, address: 0x68, clock: clock)
        #expect(throws: IMUError.wrongIdentity(chip: "ICM-20948", bus: "test-i2c", address: 0x68, register: 0x00, found: 0xD1, expected: [0xEA])) {
            try driver.reset()
        }
    }

    @Test func configurationWritesBothBanks() throws {
        let rig = try Rig()
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest())
        #expect(rig.register(0x00, bank: 2) == 5, "GYRO_SMPLRT_DIV")
        // DLPFCFG 3 (50.4 Hz, nearest rate / 4) in bits 5:3, ±2000 °/s in bits 2:1, FCHOICE.
        #expect(rig.register(0x01, bank: 2) == 0x1F)
        #expect(rig.register(0x10, bank: 2) == 0 && rig.register(0x11, bank: 2) == 5, "ACCEL_SMPLRT_DIV")
        #expect(rig.register(0x14, bank: 2) == 0x1F, "ACCEL_CONFIG: DLPFCFG 3, ±16 g, FCHOICE")
        #expect(rig.register(0x09, bank: 2) == 1, "ODR_ALIGN_EN")
        #expect(rig.register(0x00) == 0xEA, "bank 0 untouched by bank 2's writes")
        #expect(rig.register(0x67) == 0x1E, "FIFO_EN_2: accelerometer and gyroscope")
        #expect(rig.register(0x69) == 0, "stream mode")
        #expect(rig.register(0x12) == 0x1F, "FIFO overflow interrupt")
        #expect(rig.register(0x07) == 0x3F, "no measuring before start")
        #expect(rig.chip.selectedBank == 0)
        #expect(configuration == IMUConfiguration(
            model: "ICM-20948", rateHz: 187.5, accelerometerRange: 16, gyroscopeRange: 2000, accelerometerLSBPerG: 2048, gyroscopeLSBPerDPS: 16.4,
            lowPassHz: 50.4, fifoCapacity: 39, watermark: 4))

        try rig.driver.start()
        #expect(rig.register(0x06) == 0x01 && rig.register(0x07) == 0)
        #expect(rig.register(0x03) == 0x40)
        #expect(rig.register(0x68) & 0x01 == 0, "FIFO 0 out of reset")
        #expect(rig.chip.isMeasuring && rig.chip.outputRateHz == 187.5)
    }

    @Test func nearestSettingsNeverASmallerRange() throws {
        let rig = try Rig()
        try rig.driver.reset()
        var configuration = try rig.driver.configure(IMURequest(rateHz: 100, accelerometerRange: 3, gyroscopeRange: 300, lowPassHz: 20, useFIFO: false))
        #expect(rig.register(0x00, bank: 2) == 10 && abs(configuration.rateHz - 1125.0 / 11) < 1e-9)
        #expect(configuration.accelerometerRange == 4 && rig.register(0x14, bank: 2) == 0x22 | 0x01)
        #expect(configuration.gyroscopeRange == 500 && rig.register(0x01, bank: 2) == 0x22 | 0x01)
        configuration = try rig.driver.configure(IMURequest(rateHz: 1125, accelerometerRange: 2, gyroscopeRange: 250, lowPassHz: 500))
        #expect(rig.register(0x00, bank: 2) == 0 && configuration.rateHz == 1125 && configuration.lowPassHz == 246)
        #expect(rig.register(0x14, bank: 2) == 0x09 && rig.register(0x01, bank: 2) == 0x09)
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(rateHz: 1200)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(accelerometerRange: 17)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(gyroscopeRange: 2001)) }
    }

    @Test(arguments: 0..<4)
    func scalingAtEachRange(code: Int) throws {
        let motion = SteadyMotion(acceleration: SIMD3(0.5, -0.25, 1), angularRate: SIMD3(100, -50, 12.5))
        let rig = try Rig(motion: motion)
        let ranges: [(Float, Float)] = [(2, 250), (4, 500), (8, 1000), (16, 2000)]
        let configuration = try rig.running(IMURequest(accelerometerRange: ranges[code].0, gyroscopeRange: ranges[code].1))
        #expect(rig.register(0x14, bank: 2) & 0x06 == UInt8(code) << 1 && rig.register(0x01, bank: 2) & 0x06 == UInt8(code) << 1)
        #expect(configuration.accelerometerLSBPerG == Self.accelLSB[code] && configuration.gyroscopeLSBPerDPS == Self.gyroLSB[code])
        rig.advance(periods: 3)
        let (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 3))
        for reading in readings {
            Self.expectClose(reading, motion.reading(atSeconds: 0), lsbPerG: Self.accelLSB[code], lsbPerDPS: Self.gyroLSB[code])
        }
        // The polled path scales the same.
        _ = try rig.driver.configure(IMURequest(accelerometerRange: ranges[code].0, gyroscopeRange: ranges[code].1, useFIFO: false))
        try rig.driver.start()
        rig.advance(periods: 1)
        let (polled, _) = try rig.drain()
        Self.expectClose(try #require(polled.first), motion.reading(atSeconds: 0), lsbPerG: Self.accelLSB[code], lsbPerDPS: Self.gyroLSB[code])
    }

    @Test func drainsOfEverySizeWithoutSwitchingBanks() throws {
        let rig = try Rig()
        let configuration = try rig.running()
        var index = 0
        for size in 0...configuration.fifoCapacity {
            rig.advance(periods: Double(size))
            rig.bus.resetStatistics()
            let (readings, report) = try rig.drain()
            #expect(report == IMUDrainReport(count: size), "size \(size)")
            #expect(rig.bus.statistics.reads == (size == 0 ? 2 : 3) && rig.bus.statistics.writes == 0)
            #expect(rig.bus.statistics.bytesRead == 3 + 12 * size)
            for reading in readings {
                Self.expectClose(reading, RampMotion.value(atSeconds: (Self.startPeriods + Double(index + 1)) / Self.rate))
                index += 1
            }
        }
        #expect(index == configuration.fifoCapacity * (configuration.fifoCapacity + 1) / 2)
        rig.advance(periods: Double(configuration.fifoCapacity + 1))
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty, "past the three-record margin")
    }

    @Test func aFractionOfAPeriodAddsNothingAndAPartialRecordStays() throws {
        let rig = try Rig()
        _ = try rig.running()
        rig.advance(periods: 0.5)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0))
        rig.advance(periods: 0.5)
        #expect(try rig.drain().1 == IMUDrainReport(count: 1))
        rig.advance(periods: 3)
        try rig.bus.writeRegister(address: rig.address, register: 0x7F, value: 0)
        _ = try rig.bus.read(address: rig.address, register: 0x72, count: 5)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2, partialBytes: 7))
        #expect(rig.chip.fifo.count == 7)
    }

    @Test func overflowResetsTheFIFOAndTheNextDrainIsNormal() throws {
        let rig = try Rig()
        _ = try rig.running()
        rig.advance(periods: 400)
        #expect(try rig.bus.read(address: rig.address, register: 0x70, count: 2) == [0x02, 0x00], "full: 512 bytes")
        let (lost, report) = try rig.drain()
        #expect(report.overflowed && lost.isEmpty)
        #expect(report.detail == "FIFO overflow (512 of 512 bytes)")
        #expect(rig.chip.fifo.count == 0)
        rig.advance(periods: 5)
        let (readings, next) = try rig.drain()
        #expect(next == IMUDrainReport(count: 5))
        for (offset, reading) in readings.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: (Self.startPeriods + Double(401 + offset)) / Self.rate))
        }
    }

    /// The overflow flag alone (INT_STATUS_2) resets the FIFO, whatever the count says.
    @Test func theOverflowFlagAloneIsAnOverflow() throws {
        let rig = try Rig()
        _ = try rig.running(IMURequest(rateHz: 1125))
        // Snapshot mode keeps the oldest bytes and still flags the overflow.
        try rig.bus.writeRegister(address: rig.address, register: 0x69, value: 1)
        rig.advance(periods: 100, rate: 1125)
        _ = try rig.bus.read(address: rig.address, register: 0x72, count: 300)
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
    }

    @Test func aCorruptedCountIsAnOverflowWithDetail() throws {
        let rig = try Rig()
        _ = try rig.running()
        rig.advance(periods: 3)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(report.detail == "FIFO count 0x1FFF exceeds 512 bytes")
        rig.advance(periods: 2)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2))
    }

    @Test func polledReadsTheNewestSampleOnDataReady() throws {
        let rig = try Rig()
        let configuration = try rig.running(IMURequest(rateHz: 100, accelerometerRange: 8, gyroscopeRange: 1000, useFIFO: false))
        let rate = configuration.rateHz
        #expect(configuration.fifoCapacity == 0 && configuration.watermark == 1)
        #expect(rig.register(0x11) == 0x01 && rig.register(0x67) == 0 && rig.register(0x03) & 0x40 == 0)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0))
        rig.advance(periods: 1, rate: rate)
        rig.bus.resetStatistics()
        var (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        #expect(rig.bus.statistics.reads == 2 && rig.bus.statistics.bytesRead == 13)
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: (Self.startPeriods(rate: rate) + 1) / rate), lsbPerG: 4096, lsbPerDPS: 32.8)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0), "data-ready cleared")
        rig.advance(periods: 3, rate: rate)
        (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: (Self.startPeriods(rate: rate) + 4) / rate), lsbPerG: 4096, lsbPerDPS: 32.8)
    }

    @Test func stopPutsThePartToSleep() throws {
        let rig = try Rig()
        _ = try rig.running()
        try rig.driver.stop()
        #expect(rig.register(0x06) & 0x40 != 0 && !rig.chip.isMeasuring)
    }

    @Test func anUnpluggedPartIsATransientBusErrorAndResetsAfterReplug() throws {
        let rig = try Rig()
        _ = try rig.running()
        rig.bus.setFault(.unplugged, at: rig.address)
        do throws(IMUError) {
            _ = try rig.drain()
            Issue.record("drain succeeded on an unplugged part")
        } catch {
            #expect(error.isTransient)
            #expect(error.busError?.isDeviceGone == true)
        }
        rig.bus.setFault(nil, at: rig.address)
        #expect(rig.register(0x06) == 0x41 && rig.register(0x00, bank: 2) == 0, "power-on values after the replug")
        _ = try rig.running()
        rig.advance(periods: 4)
        #expect(try rig.drain().1 == IMUDrainReport(count: 4))
    }
}

import Testing
@testable import DeviceLink

/// The BMI160 driver against its register-level simulator. Register addresses and values are the
/// data sheet's numbers, written out, so a wrong constant shared by driver and simulator still
/// fails here.
@Suite struct BMI160DriverTests {
    /// Constant acceleration and rotation.
    struct SteadyMotion: SimulatedMotion {
        var acceleration: SIMD3<Float>
        var angularRate: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    /// A different value every sample (x ramps 1 g per second, wrapping at 8 g), so a drain that
    /// skips, repeats or misaligns frames shows.
    struct RampMotion: SimulatedMotion {
        static func value(atSeconds seconds: Double) -> IMUReading {
            let x = Float(seconds.truncatingRemainder(dividingBy: 8))
            return IMUReading(acceleration: SIMD3(x, -0.25, 1), angularRate: SIMD3(100 * x, -50, 12.5))
        }
        func reading(atSeconds seconds: Double) -> IMUReading { Self.value(atSeconds: seconds) }
    }

    static let model = IMUModel.first(of: .bmi160)!
    static let steady = SteadyMotion(acceleration: SIMD3(0.5, -0.25, 1), angularRate: SIMD3(100, -50, 12.5))

    struct Rig {
        let clock: ManualIMUClock
        let bus: SimulatedI2CBus
        let chip: SimulatedBMI160
        let driver: BMI160Driver
        let address: UInt8

        init(motion: any SimulatedMotion = RampMotion()) throws {
            clock = ManualIMUClock()
            bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
            address = SimulatedIMUBoard.attach(BMI160DriverTests.model, to: bus, motion: motion)
            chip = try #require(bus.device(at: address) as? SimulatedBMI160)
            driver = BMI160Driver(model: BMI160DriverTests.model, bus: bus, address: address, clock: clock)
        }

        func register(_ address: Int) -> UInt8 { chip.registers[address] }

        /// FIFO_LENGTH as the bus reads it.
        func fifoLength() throws -> Int {
            let bytes = try bus.read(address: address, register: 0x22, count: 2)
            return Int(bytes[0]) | Int(bytes[1] & 0x07) << 8
        }

        /// Advances the clock by `periods` sample periods of `rate`.
        func advance(periods: Double, rate: Double) { clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded(.up))) }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }

        /// Resets, configures and starts, then waits for the next sample and drains it away, so
        /// the clock sits on a sample time (the start-up waits leave it between two). Returns the
        /// index of the next sample; it is taken at (index + 1) / rate seconds.
        func start(_ request: IMURequest = IMURequest()) throws -> Int {
            try driver.reset()
            let configuration = try driver.configure(request)
            try driver.start()
            let origin = try #require(chip.sampleStartNanoseconds)
            let period = 1e9 / configuration.rateHz
            let next = Int((Double(clock.nowNanoseconds() - origin) / period).rounded(.up))
            clock.advance(nanoseconds: origin + Int64(Double(next) * period) - clock.nowNanoseconds())
            _ = try drain()
            return next
        }
    }

    static func expectClose(_ reading: IMUReading, _ expected: IMUReading, lsbPerG: Float, lsbPerDPS: Float,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for axis in 0..<3 {
            #expect(abs(reading.acceleration[axis] - expected.acceleration[axis]) <= 1 / lsbPerG, "accel \(axis)", sourceLocation: sourceLocation)
            #expect(abs(reading.angularRate[axis] - expected.angularRate[axis]) <= 1 / lsbPerDPS, "gyro \(axis)", sourceLocation: sourceLocation)
        }
    }

    @Test func thePartPowersUpSuspendedWithNoData() throws {
        let rig = try Rig()
        rig.clock.advance(nanoseconds: 1_000_000_000)
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x00) == 0xD1)
        #expect(rig.register(0x03) == 0, "PMU_STATUS: both sensors suspended")
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x1B) & 0xC0 == 0)
        #expect(try rig.bus.read(address: rig.address, register: 0x0C, count: 12) == [UInt8](repeating: 0, count: 12))
        #expect(try rig.fifoLength() == 0)
        #expect(rig.register(0x40) == 0x28 && rig.register(0x41) == 0x03 && rig.register(0x47) == 0x10)
    }

    /// The part ignores a write less than 450 µs after the previous one while both sensors are
    /// suspended, which is why the driver spaces them.
    @Test func writesWhileSuspendedNeedSpacing() throws {
        let rig = try Rig()
        try rig.bus.writeRegister(address: rig.address, register: 0x41, value: 0x05)
        try rig.bus.writeRegister(address: rig.address, register: 0x43, value: 0x02)
        #expect(rig.register(0x41) == 0x05 && rig.register(0x43) == 0x00 && rig.chip.ignoredWrites == 1)
        rig.clock.advance(nanoseconds: 450_000)
        try rig.bus.writeRegister(address: rig.address, register: 0x43, value: 0x02)
        #expect(rig.register(0x43) == 0x02)
    }

    @Test func resetSoftResetsAndLeavesTheSensorsSuspended() throws {
        let rig = try Rig()
        // Left running with odd settings, as a crashed daemon would leave it.
        try rig.bus.writeRegister(address: rig.address, register: 0x7E, value: 0x11)
        try rig.bus.write(address: rig.address, register: 0x40, bytes: [0x2C, 0x0C])
        try rig.bus.writeRegister(address: rig.address, register: 0x47, value: 0xC0)
        #expect(rig.register(0x03) == 0x10 && rig.register(0x41) == 0x0C)
        let before = rig.clock.nowNanoseconds()
        try rig.driver.reset()
        #expect(rig.register(0x03) == 0 && rig.register(0x40) == 0x28 && rig.register(0x41) == 0x03 && rig.register(0x47) == 0x10)
        #expect(rig.clock.nowNanoseconds() - before >= 1_000_000, "waited after the soft reset")
        #expect(rig.chip.ignoredWrites == 0)
    }

    @Test func aDifferentChipIsRefusedAndNotReset() throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let other = try #require(IMUModel.first(of: .icm20948))
        let address = SimulatedIMUBoard.attach(other, to: bus, motion: RestingMotion())
        let driver = BMI160Driver(model: Self.model, bus: bus, address: address, clock: clock)
        #expect(throws: IMUError.wrongIdentity(chip: "BMI160", bus: "test-i2c", address: address, register: 0x00, found: 0xEA, expected: [0xD1])) {
            try driver.reset()
        }
        #expect(bus.statistics.writes == 0)
    }

    @Test func configurationWritesTheRegisters() throws {
        let rig = try Rig()
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest())
        #expect(rig.register(0x40) == 0x29)   // acc_bwp normal, 200 Hz
        #expect(rig.register(0x41) == 0x0C)   // ±16 g
        #expect(rig.register(0x42) == 0x29)   // gyr_bwp normal, 200 Hz
        #expect(rig.register(0x43) == 0x00)   // ±2000 °/s
        #expect(rig.register(0x46) == 12)     // 4 frames of 12 bytes in 4-byte units
        #expect(rig.register(0x51) == 0x20)   // int_ffull_en
        #expect(rig.register(0x47) == 0, "FIFO off until start")
        #expect(rig.register(0x03) == 0, "no measuring before start")
        #expect(rig.chip.ignoredWrites == 0, "every write spaced while suspended")
        #expect(configuration == IMUConfiguration(
            model: "BMI160", rateHz: 200, accelerometerRange: 16, gyroscopeRange: 2000, accelerometerLSBPerG: 2048, gyroscopeLSBPerDPS: 16.4,
            lowPassHz: 80, fifoCapacity: 84, watermark: 4))
        #expect(rig.driver.configuration == configuration)

        let before = rig.clock.nowNanoseconds()
        try rig.driver.start()
        #expect(rig.clock.nowNanoseconds() - before >= 84_000_000, "accelerometer 4 ms, gyroscope 80 ms start-up")
        #expect(rig.register(0x03) == 0x14, "both sensors normal")
        #expect(rig.register(0x47) == 0xC0, "gyroscope and accelerometer, headerless")
        #expect(try rig.fifoLength() == 0, "flushed")
        #expect(rig.chip.isMeasuring && rig.chip.ignoredWrites == 0)
    }

    @Test func nearestSettingsNeverASmallerRange() throws {
        let rig = try Rig()
        try rig.driver.reset()
        var configuration = try rig.driver.configure(IMURequest(rateHz: 300, accelerometerRange: 3, gyroscopeRange: 300))
        #expect(configuration.rateHz == 400 && rig.register(0x40) & 0x0F == 0x0A && rig.register(0x42) & 0x0F == 0x0A)
        #expect(configuration.accelerometerRange == 4 && rig.register(0x41) == 0x05)
        #expect(configuration.gyroscopeRange == 500 && rig.register(0x43) == 2)
        configuration = try rig.driver.configure(IMURequest(rateHz: 10, accelerometerRange: 2, gyroscopeRange: 100, useFIFO: false))
        #expect(configuration.rateHz == 25 && rig.register(0x40) == 0x26 && rig.register(0x42) == 0x26)
        #expect(configuration.accelerometerRange == 2 && rig.register(0x41) == 0x03)
        #expect(configuration.gyroscopeRange == 125 && rig.register(0x43) == 4)
        configuration = try rig.driver.configure(IMURequest(rateHz: 1600, accelerometerRange: 9, gyroscopeRange: 1001))
        #expect(configuration.rateHz == 1600 && rig.register(0x40) == 0x2C && configuration.lowPassHz == 684)
        #expect(configuration.accelerometerRange == 16 && configuration.gyroscopeRange == 2000)
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(rateHz: 1601)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(rateHz: 0)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(accelerometerRange: 17)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(gyroscopeRange: 2001)) }
    }

    /// Each full scale: the counts the simulator makes at that range, scaled back by the data
    /// sheet's sensitivity, are the motion within one count.
    @Test(arguments: 0..<5)
    func scalingAtEachRange(index: Int) throws {
        let ranges: [(g: Float, code: UInt8, lsb: Float)] = [(2, 0x03, 16384), (4, 0x05, 8192), (8, 0x08, 4096), (16, 0x0C, 2048), (16, 0x0C, 2048)]
        let gyro: [(dps: Float, code: UInt8, lsb: Float)] = [(125, 4, 262.4), (250, 3, 131.2), (500, 2, 65.6), (1000, 1, 32.8), (2000, 0, 16.4)]
        let rig = try Rig(motion: Self.steady)
        _ = try rig.start(IMURequest(accelerometerRange: ranges[index].g, gyroscopeRange: gyro[index].dps))
        let configuration = try #require(rig.driver.configuration)
        #expect(rig.register(0x41) == ranges[index].code && rig.register(0x43) == gyro[index].code)
        #expect(configuration.accelerometerLSBPerG == ranges[index].lsb && configuration.gyroscopeLSBPerDPS == gyro[index].lsb)
        rig.advance(periods: 3, rate: 200)
        let (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 3))
        #expect(readings.count == 3)
        for reading in readings {
            Self.expectClose(reading, Self.steady.reading(atSeconds: 0), lsbPerG: ranges[index].lsb, lsbPerDPS: gyro[index].lsb)
        }
    }

    /// The bytes on the wire: 0.5 g, -0.25 g, 1 g at ±2 g and 100, -50, 12.5 °/s at ±125 °/s.
    @Test func framesAreGyroscopeThenAccelerometerLittleEndian() throws {
        let rig = try Rig(motion: Self.steady)
        _ = try rig.start(IMURequest(accelerometerRange: 2, gyroscopeRange: 125))
        rig.advance(periods: 1, rate: 200)
        // 26240 = 0x6680, -13120 = 0xCCC0, 3280 = 0x0CD0; 8192 = 0x2000, -4096 = 0xF000, 16384 = 0x4000.
        let expected: [UInt8] = [0x80, 0x66, 0xC0, 0xCC, 0xD0, 0x0C, 0x00, 0x20, 0x00, 0xF0, 0x00, 0x40]
        #expect(try rig.bus.read(address: rig.address, register: 0x0C, count: 12) == expected)
        #expect(try rig.bus.read(address: rig.address, register: 0x24, count: 12) == expected)
    }

    /// Every drain size from empty to the most the driver accepts, each with the right samples in
    /// order and one FIFO read; one more frame fills the FIFO, which counts as an overflow.
    @Test func drainsOfEverySize() throws {
        let rig = try Rig()
        var index = try rig.start()
        let capacity = try #require(rig.driver.configuration?.fifoCapacity)
        for size in 0...capacity {
            rig.advance(periods: Double(size), rate: 200)
            rig.bus.resetStatistics()
            let (readings, report) = try rig.drain()
            #expect(report == IMUDrainReport(count: size), "size \(size)")
            #expect(readings.count == size)
            #expect(rig.bus.statistics.reads == (size == 0 ? 1 : 2), "status and length, then one read of every frame")
            #expect(rig.bus.statistics.bytesRead == 7 + 12 * size)
            for reading in readings {
                Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 1) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
                index += 1
            }
        }
        rig.advance(periods: Double(capacity + 1), rate: 200)
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(rig.chip.fifo.count == 0)
    }

    @Test func aFractionOfAPeriodAddsNothingAndAPartialFrameStays() throws {
        let rig = try Rig()
        let index = try rig.start()
        rig.advance(periods: 0.5, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0))
        rig.advance(periods: 0.5, rate: 200)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 1)
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(index + 1) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)

        // Someone read 5 bytes off the FIFO: 3 frames less 5 bytes are 2 whole ones and 7 bytes.
        rig.advance(periods: 3, rate: 200)
        _ = try rig.bus.read(address: rig.address, register: 0x24, count: 5)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2, partialBytes: 7))
        #expect(rig.chip.fifo.count == 7)
    }

    @Test func overflowFlushesTheFIFOAndTheNextDrainIsNormal() throws {
        let rig = try Rig()
        let index = try rig.start()
        rig.advance(periods: 400, rate: 200)
        let (lost, report) = try rig.drain()
        #expect(report.overflowed && report.count == 0 && lost.isEmpty)
        #expect(report.detail == "FIFO overflow (1020 of 1024 bytes)")
        #expect(rig.chip.fifo.count == 0)
        #expect(rig.register(0x47) == 0xC0, "FIFO still configured")
        rig.advance(periods: 5, rate: 200)
        let (readings, next) = try rig.drain()
        #expect(next == IMUDrainReport(count: 5))
        for (offset, reading) in readings.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 401 + offset) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
    }

    /// A long read of a nearly full FIFO (84 frames on a slow bus) empties it while frames come:
    /// the bytes left plus those read exceed what it holds, yet nothing was lost or thrown away.
    @Test func aLongReadOfANearlyFullFIFOIsNoOverflow() throws {
        let rig = try Rig()
        let index = try rig.start()
        rig.advance(periods: 84, rate: 200)
        rig.bus.stallOnce(nanoseconds: 25_000_000, at: rig.address, register: 0x24)
        let (readings, report) = try rig.drain()
        #expect(!report.overflowed && readings.count == 84, "\(report)")
        for (offset, reading) in readings.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 1 + offset) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
        let (after, _) = try rig.drain()
        #expect(after.count == 5)
        for (offset, reading) in after.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 85 + offset) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
    }

    /// Held up between the length and the data read for longer than the FIFO holds (85 frames,
    /// 0.425 s at 200 Hz), the FIFO dropped its oldest whole frames: those read are aligned but
    /// not those counted, 160 samples later, after a gap, and ffull_int cleared as they were
    /// read. The batch is a break, not motion continuing the last.
    @Test func aFIFOThatOverflowsDuringTheReadIsABreakNotMotion() throws {
        let rig = try Rig()
        let index = try rig.start()
        rig.advance(periods: 10, rate: 200)
        rig.bus.delayOnce(nanoseconds: 800_000_000, at: rig.address, register: 0x24)
        let (readings, report) = try rig.drain()
        for (offset, reading) in readings.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 1 + offset) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
        #expect(report.overflowed && readings.isEmpty, "\(report)")
        #expect(rig.chip.fifo.count == 0)
        rig.advance(periods: 5, rate: 200)
        let (after, next) = try rig.drain()
        #expect(next == IMUDrainReport(count: 5))
        for (offset, reading) in after.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 171 + offset) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
    }

    /// The simulator overflows as the part does: it keeps the newest 85 whole frames, aligned,
    /// and shows ffull_int.
    @Test func theSimulatedFIFODropsItsOldestWholeFrames() throws {
        let rig = try Rig()
        let index = try rig.start()
        rig.advance(periods: 200, rate: 200)
        #expect(try rig.fifoLength() == 1020)
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x1D) & 0x20 != 0)
        let bytes = try rig.bus.read(address: rig.address, register: 0x24, count: 12)
        let oldest = bytes.withUnsafeBytes { BMI160Settings.reading($0, at: 0, lsbPerG: 2048, lsbPerDPS: 16.4) }
        Self.expectClose(oldest, RampMotion.value(atSeconds: Double(index + 200 - 85 + 1) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x1D) & 0x20 == 0, "room for a frame again")
    }

    @Test func aCorruptedLengthIsAnOverflowWithDetail() throws {
        let rig = try Rig()
        _ = try rig.start()
        rig.advance(periods: 3, rate: 200)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(report.detail == "FIFO length 0x7FF exceeds 1024 bytes")
        #expect(rig.chip.fifo.count == 0)
        rig.advance(periods: 2, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2))
    }

    @Test func polledReadsTheNewestSampleOnDataReady() throws {
        let rig = try Rig()
        let index = try rig.start(IMURequest(rateHz: 100, accelerometerRange: 8, gyroscopeRange: 1000, useFIFO: false))
        let configuration = try #require(rig.driver.configuration)
        #expect(configuration.fifoCapacity == 0 && configuration.watermark == 1)
        #expect(rig.register(0x47) == 0 && rig.register(0x51) == 0)
        #expect(rig.chip.fifo.count == 0)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0), "data-ready cleared by the last read")
        rig.advance(periods: 1, rate: 100)
        rig.bus.resetStatistics()
        var (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        #expect(rig.bus.statistics.reads == 2 && rig.bus.statistics.bytesRead == 13)
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(index + 1) / 100), lsbPerG: 4096, lsbPerDPS: 32.8)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0), "data-ready cleared")
        rig.advance(periods: 3, rate: 100)
        (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(index + 4) / 100), lsbPerG: 4096, lsbPerDPS: 32.8)
    }

    @Test func stopSuspendsBothSensors() throws {
        let rig = try Rig()
        _ = try rig.start()
        rig.advance(periods: 2, rate: 200)
        try rig.driver.stop()
        #expect(rig.register(0x03) == 0 && rig.register(0x47) == 0)
        #expect(!rig.chip.isMeasuring && rig.chip.ignoredWrites == 0)
        let left = rig.chip.fifo.count
        rig.advance(periods: 10, rate: 200)
        #expect(try rig.fifoLength() == left)
    }

    @Test func anUnpluggedPartIsATransientBusErrorAndResetsAfterReplug() throws {
        let rig = try Rig()
        _ = try rig.start()
        rig.bus.setFault(.unplugged, at: rig.address)
        do throws(IMUError) {
            _ = try rig.drain()
            Issue.record("drain succeeded on an unplugged part")
        } catch {
            #expect(error.isTransient)
            #expect(error.busError?.isDeviceGone == true)
        }
        rig.bus.setFault(nil, at: rig.address)
        #expect(rig.register(0x03) == 0 && rig.register(0x41) == 0x03 && rig.register(0x47) == 0x10, "power-on values after the replug")
        _ = try rig.start()
        rig.advance(periods: 4, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 4))
    }

    @Test func drainBeforeConfigureIsNotReady() throws {
        let rig = try Rig()
        try rig.driver.reset()
        var readings: [IMUReading] = []
        #expect(throws: IMUError.self) { _ = try rig.driver.drain(into: &readings) }
    }
}

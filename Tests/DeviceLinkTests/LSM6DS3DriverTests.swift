import Testing
@testable import DeviceLink

/// The LSM6DS3/DSL driver against its register-level simulator: reset, the non-monotonic FS codes,
/// scaling at every range, FIFO pattern drains, overrun, a corrupted status, pattern alignment,
/// polling, power loss and bus faults. Each test runs for both models.
@Suite struct LSM6DS3DriverTests {
    static let models = ["LSM6DS3", "LSM6DSL"]
    static let address: UInt8 = 0x6A
    static let gravity = SIMD3<Float>(0.5, -0.25, 1)
    static let rotation = SIMD3<Float>(100, -50, 25)

    /// Gravity and a steady rotation, so gyroscope and accelerometer words cannot be confused.
    struct Steady: SimulatedMotion {
        var acceleration = LSM6DS3DriverTests.gravity
        var angularRate = LSM6DS3DriverTests.rotation
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    struct Rig {
        let clock: ManualIMUClock
        let bus: SimulatedI2CBus
        let chip: SimulatedLSM6DS3
        let driver: LSM6DS3Driver

        /// Advances by `periods` output periods at `rate`.
        func advance(periods: Double, rate: Double = 208) {
            clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded()))
        }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }
    }

    static func model(_ name: String) throws -> IMUModel {
        try #require(IMUModel.catalog.first { $0.name == name })
    }

    static func rig(_ name: String, motion: any SimulatedMotion = Steady()) throws -> Rig {
        let model = try model(name)
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let chip = SimulatedLSM6DS3(model: model, motion: motion, clock: clock)
        bus.attach(chip, at: address)
        return Rig(clock: clock, bus: bus, chip: chip, driver: LSM6DS3Driver(model: model, bus: bus, address: address, clock: clock))
    }

    /// A rig reset, configured for `request` and started.
    static func running(_ name: String, _ request: IMURequest = IMURequest(rateHz: 200)) throws -> Rig {
        let rig = try rig(name)
        try rig.driver.reset()
        _ = try rig.driver.configure(request)
        try rig.driver.start()
        return rig
    }

    static func close(_ value: SIMD3<Float>, _ expected: SIMD3<Float>, lsb: Float) -> Bool {
        let difference = value - expected
        return (0..<3).allSatisfy { abs(difference[$0]) <= lsb * 1.001 }
    }

    static func expectSteady(_ readings: [IMUReading], _ configuration: IMUConfiguration?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let configuration else { Issue.record("not configured", sourceLocation: sourceLocation); return }
        for reading in readings {
            #expect(close(reading.acceleration, gravity, lsb: 1 / configuration.accelerometerLSBPerG), "\(reading)", sourceLocation: sourceLocation)
            #expect(close(reading.angularRate, rotation, lsb: 1 / configuration.gyroscopeLSBPerDPS), "\(reading)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Identity and reset

    @Test(arguments: models) func resetRestoresPowerOnValuesAndSetsBDU(name: String) throws {
        let rig = try Self.rig(name)
        try rig.bus.writeRegister(address: Self.address, register: 0x10, value: 0x5C)  // left running by a crashed daemon
        try rig.driver.reset()
        #expect(rig.chip.registers[0x10] == 0)
        #expect(rig.chip.registers[0x12] == 0x44, "BDU and IF_INC, SW_RESET cleared")
        #expect(rig.driver.configuration == nil)
    }

    @Test(arguments: models) func anotherChipIsRefused(name: String) throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let dso = try Self.model("LSM6DSO")
        bus.attach(SimulatedLSM6DSO(model: dso, clock: clock), at: Self.address)
        let driver = LSM6DS3Driver(model: try Self.model(name), bus: bus, address: Self.address, clock: clock)
        do {
            try driver.reset()
            Issue.record("an LSM6DSO passed as \(name)")
        } catch {
            guard case .wrongIdentity(_, _, _, let register, let found, _) = error else { Issue.record("\(error)"); return }
            #expect(register == 0x0F)
            #expect(found == 0x6C)
        }
        // Nothing was written to the other chip.
        #expect((bus.device(at: Self.address) as? SimulatedLSM6DSO)?.registers[0x12] == 0x04)
    }

    // MARK: Configuration

    @Test(arguments: models) func configurationWritesRatesRangesAndFIFO(name: String) throws {
        let rig = try Self.rig(name)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200, accelerometerRange: 16, gyroscopeRange: 2000))
        #expect(configuration.rateHz == 208)
        #expect(configuration.accelerometerRange == 16)
        #expect(configuration.gyroscopeRange == 2000)
        #expect(configuration.fifoCapacity == (name == "LSM6DS3" ? 682 : 341))
        #expect(configuration.watermark == 4)
        // Powered down until start; FS_XL 01 is ±16 g, FS_G 11 is 2000 °/s.
        #expect(rig.chip.registers[0x10] >> 4 == 0)
        #expect(rig.chip.registers[0x10] >> 2 & 0x03 == 0b01)
        #expect(rig.chip.registers[0x11] == 0b11 << 2)
        #expect(rig.chip.registers[0x08] == 0x09, "gyroscope and accelerometer undecimated")
        let threshold = Int(rig.chip.registers[0x06]) | Int(rig.chip.registers[0x07] & 0x0F) << 8
        #expect(threshold == 4 * 6)
        #expect(rig.chip.registers[0x0A] == 0, "bypass until start")
        if name == "LSM6DS3" {
            #expect(rig.chip.registers[0x13] & 0x80 != 0, "XL_BW_SCAL_ODR")
            #expect(rig.chip.registers[0x10] & 0x03 == 0b11, "BW_XL 50 Hz, nearest 208/4")
            #expect(configuration.lowPassHz == 50)
        } else {
            #expect(rig.chip.registers[0x10] & 0x03 == 0b10, "LPF1_BW_SEL: ODR/4")
            #expect(configuration.lowPassHz == 52)
        }
        try rig.driver.start()
        #expect(rig.chip.registers[0x10] >> 4 == 5)
        #expect(rig.chip.registers[0x11] >> 4 == 5)
        #expect(rig.chip.registers[0x0A] == 5 << 3 | 6, "FIFO at 208 Hz, continuous")
        try rig.driver.stop()
        #expect(rig.chip.registers[0x10] >> 4 == 0)
        #expect(rig.chip.registers[0x11] >> 4 == 0)
        #expect(rig.chip.registers[0x0A] == 0)
    }

    @Test(arguments: models) func ratesAreTheNearestAtOrAbove(name: String) throws {
        let rig = try Self.rig(name)
        try rig.driver.reset()
        let fastest: Double = name == "LSM6DS3" ? 1660 : 6660
        for (asked, chosen, code) in [(1.0, 12.5, 1), (12.5, 12.5, 1), (13, 26, 2), (100, 104, 4), (400, 416, 6), (1000, 1660, 8),
                                      (5000, fastest, name == "LSM6DS3" ? 8 : 10), (20000, fastest, name == "LSM6DS3" ? 8 : 10)] {
            let configuration = try rig.driver.configure(IMURequest(rateHz: asked))
            #expect(configuration.rateHz == chosen, "\(asked) Hz")
            try rig.driver.start()
            #expect(Int(rig.chip.registers[0x10] >> 4) == code, "\(asked) Hz")
            #expect(Int(rig.chip.registers[0x0A] >> 3) == code, "FIFO ODR for \(asked) Hz")
        }
    }

    /// FS_XL codes are not in range order: 00 ±2, 10 ±4, 11 ±8, 01 ±16 g.
    @Test(arguments: models, [(Float(2), UInt8(0b00), Float(0.061)), (4, 0b10, 0.122), (8, 0b11, 0.244), (16, 0b01, 0.488), (3, 0b10, 0.122)])
    func accelerometerScaleAtEachRange(name: String, range: (asked: Float, code: UInt8, milligPerLSB: Float)) throws {
        let rig = try Self.rig(name)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200, accelerometerRange: range.asked, gyroscopeRange: 2000))
        #expect(rig.chip.registers[0x10] >> 2 & 0x03 == range.code)
        #expect(configuration.accelerometerRange >= range.asked)
        #expect(abs(configuration.accelerometerLSBPerG - 1000 / range.milligPerLSB) < 0.01)
        try rig.driver.start()
        rig.advance(periods: 3.75)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 3)
        for reading in readings {
            #expect(Self.close(reading.acceleration, Self.gravity, lsb: range.milligPerLSB / 1000), "\(reading.acceleration)")
        }
    }

    @Test(arguments: models, [(Float(245), UInt8(0b00), Float(8.75)), (500, 0b01, 17.5), (1000, 0b10, 35), (2000, 0b11, 70), (250, 0b01, 17.5)])
    func gyroscopeScaleAtEachRange(name: String, range: (asked: Float, code: UInt8, millidegreesPerLSB: Float)) throws {
        let rig = try Self.rig(name)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200, accelerometerRange: 16, gyroscopeRange: range.asked))
        #expect(rig.chip.registers[0x11] >> 2 & 0x03 == range.code)
        #expect(abs(configuration.gyroscopeLSBPerDPS - 1000 / range.millidegreesPerLSB) < 0.01)
        try rig.driver.start()
        rig.advance(periods: 2.75)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 2)
        for reading in readings {
            #expect(Self.close(reading.angularRate, Self.rotation, lsb: range.millidegreesPerLSB / 1000), "\(reading.angularRate)")
        }
    }

    @Test(arguments: models) func rangesBeyondTheChipAreRefused(name: String) throws {
        let rig = try Self.rig(name)
        try rig.driver.reset()
        #expect(throws: IMUError.self) { _ = try rig.driver.configure(IMURequest(accelerometerRange: 32)) }
        #expect(throws: IMUError.self) { _ = try rig.driver.configure(IMURequest(gyroscopeRange: 4000)) }
    }

    // MARK: FIFO

    @Test(arguments: models) func drainsEverySizeAndHalfWrittenPatterns(name: String) throws {
        for count in 0...9 {
            let rig = try Self.running(name)
            rig.advance(periods: Double(count) + 0.75)
            let (readings, report) = try rig.drain()
            #expect(readings.count == count)
            #expect(report == IMUDrainReport(count: count))
            Self.expectSteady(readings, rig.driver.configuration)
            // The gyroscope set of the next sample is in, its accelerometer set not yet.
            rig.advance(periods: 0.5)
            let (none, partial) = try rig.drain()
            #expect(none.isEmpty)
            #expect(partial.partialBytes == 6, "three gyroscope words wait")
            rig.advance(periods: 0.5)
            let (one, whole) = try rig.drain()
            #expect(one.count == 1)
            #expect(whole.partialBytes == 0)
            Self.expectSteady(one, rig.driver.configuration)
        }
    }

    @Test(arguments: models) func aLongDrainIsOneReadThatRollsBack(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 300.75)
        rig.bus.resetStatistics()
        let (readings, report) = try rig.drain()
        #expect(readings.count == 300)
        #expect(!report.overflowed)
        #expect(rig.bus.statistics.reads == 2, "the status, then 3600 bytes from 0x3E in one read")
        Self.expectSteady(readings, rig.driver.configuration)
    }

    @Test(arguments: models) func anOverrunResetsTheFIFO(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 2000)  // far beyond 682 or 341 patterns
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty)
        #expect(report.overflowed)
        #expect(report.detail?.contains("overrun") == true, "\(String(describing: report.detail))")
        #expect(rig.chip.fifoWords == 0)
        #expect(rig.chip.registers[0x0A] & 0x07 == 6, "continuous again")
        rig.advance(periods: 5.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 5)
        #expect(!next.overflowed)
        Self.expectSteady(after, rig.driver.configuration)
    }

    /// Held up between the status and the data read for longer than the FIFO holds (682 or 341
    /// patterns, 3.3 or 1.6 s at 208 Hz), the FIFO overwrote its oldest words: the words read
    /// follow a gap and no longer start where the status said (accelerometer words taken for
    /// gyroscope). OVER_RUN cleared as they were read; the batch is still a break, not motion.
    @Test(arguments: models) func aFIFOThatOverflowsDuringTheReadIsABreakNotMotion(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 10.75)
        rig.bus.delayOnce(nanoseconds: 4_000_000_000, at: Self.address, register: 0x3E)
        let (readings, report) = try rig.drain()
        Self.expectSteady(readings, rig.driver.configuration)
        #expect(readings.isEmpty)
        #expect(report.overflowed, "\(report)")
        rig.advance(periods: 5.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 5 && !next.overflowed, "\(next)")
        Self.expectSteady(after, rig.driver.configuration)
    }

    /// Held up inside the status read, after the chip answered: no clock tells that time from a
    /// late drain, but words lost other than in whole patterns move the pattern position of the
    /// next word from where the words read would put it, and the batch is a break.
    @Test(arguments: models) func anOverflowWhileTheStatusReadWasHeldUpIsCaughtByThePattern(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 10.75)
        rig.bus.stallOnce(nanoseconds: 4_000_000_000, at: Self.address, register: 0x3A)
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty && report.overflowed, "\(report)")
        rig.advance(periods: 5.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 5 && !next.overflowed, "\(next)")
        Self.expectSteady(after, rig.driver.configuration)
    }

    /// A long read of a nearly full FIFO (a slow bus) empties it while words come: the words left
    /// plus those read exceed what it holds, yet nothing was lost, and nothing is thrown away.
    @Test(arguments: models) func aLongReadOfANearlyFullFIFOIsNoOverflow(name: String) throws {
        let rig = try Self.running(name)
        let patterns = (name == "LSM6DS3" ? 4096 : 2048) / 6 - 2
        rig.advance(periods: Double(patterns) + 0.75)
        rig.bus.stallOnce(nanoseconds: 50_000_000, at: Self.address, register: 0x3E)
        let (readings, report) = try rig.drain()
        #expect(!report.overflowed && readings.count == patterns, "\(report)")
        Self.expectSteady(readings, rig.driver.configuration)
        let (after, next) = try rig.drain()
        #expect(after.count == 10 && !next.overflowed, "\(after.count) \(next)")
        Self.expectSteady(after, rig.driver.configuration)
    }

    @Test(arguments: models) func aCorruptedStatusIsAnOverflow(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 4.75)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty)
        #expect(report.overflowed)
        #expect(report.detail?.contains("makes no sense") == true, "\(String(describing: report.detail))")
        rig.advance(periods: 3.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 3)
        #expect(!next.overflowed)
    }

    /// A drain cut short (a bus error after two words) leaves the FIFO mid-pattern: the driver
    /// reads the rest of that pattern away instead of taking accelerometer words for gyroscope.
    @Test(arguments: models) func alignsToAPatternStartAfterAPartialRead(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 3.75)
        _ = try rig.bus.read(address: Self.address, register: 0x3E, count: 4)
        #expect(rig.chip.patternPosition == 2)
        let (readings, report) = try rig.drain()
        #expect(readings.count == 2)
        #expect(!report.overflowed)
        #expect(report.detail == "skipped 4 FIFO words to reach a pattern start")
        Self.expectSteady(readings, rig.driver.configuration)
        #expect(rig.chip.patternPosition == 0)
        rig.advance(periods: 1)
        let (next, nextReport) = try rig.drain()
        #expect(next.count == 1)
        #expect(nextReport.detail == nil)
    }

    // MARK: Polling

    @Test(arguments: models) func polledModeReadsTheDataRegistersOnDataReady(name: String) throws {
        let rig = try Self.running(name, IMURequest(rateHz: 100, accelerometerRange: 4, gyroscopeRange: 500, useFIFO: false))
        let configuration = try #require(rig.driver.configuration)
        #expect(configuration.fifoCapacity == 0)
        #expect(configuration.watermark == 1)
        #expect(rig.chip.registers[0x0A] == 0)
        // The start waited out the filters' settling, so a sample is ready, and a settled one.
        let (first, firstReport) = try rig.drain()
        #expect(firstReport.count == 1)
        Self.expectSteady(first, configuration)
        #expect(try rig.drain().0.isEmpty, "XLDA cleared by the read")
        rig.advance(periods: 1, rate: 104)
        let (readings, report) = try rig.drain()
        #expect(report.count == 1)
        Self.expectSteady(readings, configuration)
        #expect(try rig.drain().0.isEmpty, "XLDA cleared by the read")
        rig.advance(periods: 1, rate: 104)
        #expect(try rig.drain().0.count == 1)
    }

    /// At every rate the start waits until a settled sample is in the data registers: the
    /// first polled sample is the motion, not the zeros of the filters settling. 12.5 Hz settles
    /// in a whole number of periods, where a wait a period short would read a zero.
    @Test(arguments: [12.5, 26, 52, 104, 208, 416, 833, 1660])
    func thePolledSampleAfterTheStartHasSettled(rateHz: Double) throws {
        let rig = try Self.running("LSM6DSL", IMURequest(rateHz: rateHz, useFIFO: false))
        let configuration = try #require(rig.driver.configuration)
        #expect(configuration.rateHz == rateHz)
        let (first, report) = try rig.drain()
        #expect(report.count == 1)
        Self.expectSteady(first, configuration)
    }

    /// BDU: with an output's low byte read and its high byte not, the registers keep that sample.
    @Test(arguments: models) func blockDataUpdateHoldsAHalfReadSample(name: String) throws {
        let rig = try Self.running(name, IMURequest(rateHz: 100, useFIFO: false))
        rig.advance(periods: 1.5, rate: 104)
        let low = try rig.bus.readRegister(address: Self.address, register: 0x28)
        rig.chip.motion = Steady(acceleration: SIMD3(-1, -1, -1))
        rig.advance(periods: 2, rate: 104)
        #expect(try rig.bus.readRegister(address: Self.address, register: 0x28) == low)
        _ = try rig.bus.readRegister(address: Self.address, register: 0x29)
        rig.advance(periods: 1, rate: 104)
        #expect(try rig.bus.readRegister(address: Self.address, register: 0x28) != low)
    }

    // MARK: Power and bus

    @Test(arguments: models) func resetWorksAfterAPowerCycle(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 5)
        rig.chip.powerCycle()
        #expect(rig.chip.registers[0x10] == 0)
        #expect(rig.chip.registers[0x12] == 0x04)
        #expect(rig.chip.fifoWords == 0)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest(rateHz: 200))
        try rig.driver.start()
        rig.advance(periods: 2.75)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 2)
        Self.expectSteady(readings, rig.driver.configuration)
    }

    @Test(arguments: models) func anUnpluggedChipIsATransientBusError(name: String) throws {
        let rig = try Self.running(name)
        rig.advance(periods: 2)
        rig.bus.setFault(.unplugged, at: Self.address)
        do {
            _ = try rig.drain()
            Issue.record("drained an unplugged chip")
        } catch {
            #expect(error.isTransient)
            #expect(error.busError?.isDeviceGone == true)
        }
        rig.bus.setFault(nil, at: Self.address)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest(rateHz: 200))
        try rig.driver.start()
        rig.advance(periods: 1.75)
        #expect(try rig.drain().0.count == 1)
    }
}

import Testing
@testable import DeviceLink

/// The LSM6DSO driver against its register-level simulator: reset, the non-monotonic FS codes,
/// scaling at every range, tagged FIFO drains with words that wait for their partner, overrun,
/// a corrupted count, realignment after a partial read, polling, power loss and bus faults.
@Suite struct LSM6DSODriverTests {
    static let address: UInt8 = 0x6B
    static let gravity = SIMD3<Float>(0.5, -0.25, 1)
    static let rotation = SIMD3<Float>(100, -50, 25)

    struct Steady: SimulatedMotion {
        var acceleration = LSM6DSODriverTests.gravity
        var angularRate = LSM6DSODriverTests.rotation
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    struct Rig {
        let clock: ManualIMUClock
        let bus: SimulatedI2CBus
        let chip: SimulatedLSM6DSO
        let driver: LSM6DSODriver

        func advance(periods: Double, rate: Double = 208) {
            clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded()))
        }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }
    }

    static func model() throws -> IMUModel {
        try #require(IMUModel.catalog.first { $0.name == "LSM6DSO" })
    }

    static func rig(motion: any SimulatedMotion = Steady()) throws -> Rig {
        let model = try model()
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let chip = SimulatedLSM6DSO(model: model, motion: motion, clock: clock)
        bus.attach(chip, at: address)
        return Rig(clock: clock, bus: bus, chip: chip, driver: LSM6DSODriver(model: model, bus: bus, address: address, clock: clock))
    }

    static func running(_ request: IMURequest = IMURequest(rateHz: 200)) throws -> Rig {
        let rig = try rig()
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

    @Test func resetRestoresPowerOnValuesAndSetsBDU() throws {
        let rig = try Self.rig()
        try rig.bus.writeRegister(address: Self.address, register: 0x11, value: 0x5C)
        try rig.driver.reset()
        #expect(rig.chip.registers[0x11] == 0)
        #expect(rig.chip.registers[0x12] == 0x44)
    }

    @Test func anLSM6DS3IsRefused() throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let ds3 = try #require(IMUModel.catalog.first { $0.name == "LSM6DS3" })
        bus.attach(SimulatedLSM6DS3(model: ds3, clock: clock), at: Self.address)
        let driver = LSM6DSODriver(model: try Self.model(), bus: bus, address: Self.address, clock: clock)
        do {
            try driver.reset()
            Issue.record("an LSM6DS3 passed as an LSM6DSO")
        } catch {
            guard case .wrongIdentity(_, _, _, _, let found, let expected) = error else { Issue.record("\(error)"); return }
            #expect(found == 0x69)
            #expect(expected == [0x6C])
        }
    }

    // MARK: Configuration

    @Test func configurationWritesRatesRangesFilterAndFIFO() throws {
        let rig = try Self.rig()
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 400, accelerometerRange: 8, gyroscopeRange: 1000))
        #expect(configuration.rateHz == 417)
        #expect(configuration.accelerometerRange == 8)
        #expect(configuration.gyroscopeRange == 1000)
        #expect(configuration.fifoCapacity == 256)
        #expect(configuration.watermark == 8)
        #expect(rig.chip.registers[0x10] == 0b11 << 2 | 0b10, "off until start, ±8 g, LPF2 on")
        #expect(rig.chip.registers[0x11] == 0b10 << 2)
        #expect(rig.chip.registers[0x17] >> 5 == 0, "HPCF_XL 000: ODR/4")
        #expect(abs(configuration.lowPassHz - 417.0 / 4) < 1e-9)
        #expect(rig.chip.registers[0x09] == 0x66, "both batched at 417 Hz")
        #expect(Int(rig.chip.registers[0x07]) | Int(rig.chip.registers[0x08] & 1) << 8 == 16, "watermark in words")
        #expect(rig.chip.registers[0x0A] == 0)
        try rig.driver.start()
        #expect(rig.chip.registers[0x10] >> 4 == 6)
        #expect(rig.chip.registers[0x11] >> 4 == 6)
        #expect(rig.chip.registers[0x0A] == 6, "continuous")
        try rig.driver.stop()
        #expect(rig.chip.registers[0x10] >> 4 == 0)
        #expect(rig.chip.registers[0x0A] == 0)
    }

    @Test func theLowPassIsTheNearestCorner() throws {
        let rig = try Self.rig()
        try rig.driver.reset()
        for (asked, hpcf, corner) in [(5.0, UInt8(3), 208.0 / 45), (2.0, 4, 2.08), (100, nil, 104), (21, 1, 20.8)] as [(Double, UInt8?, Double)] {
            let configuration = try rig.driver.configure(IMURequest(rateHz: 200, lowPassHz: asked))
            #expect(abs(configuration.lowPassHz - corner) < 1e-9, "\(asked) Hz")
            #expect((rig.chip.registers[0x10] & 0b10 != 0) == (hpcf != nil), "LPF2 for \(asked) Hz")
            if let hpcf { #expect(rig.chip.registers[0x17] >> 5 == hpcf, "\(asked) Hz") }
        }
    }

    @Test(arguments: [(Float(2), UInt8(0b00), Float(0.061)), (4, 0b10, 0.122), (8, 0b11, 0.244), (16, 0b01, 0.488), (9, 0b01, 0.488)])
    func accelerometerScaleAtEachRange(range: (asked: Float, code: UInt8, milligPerLSB: Float)) throws {
        let rig = try Self.rig()
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200, accelerometerRange: range.asked))
        #expect(rig.chip.registers[0x10] >> 2 & 0x03 == range.code)
        #expect(abs(configuration.accelerometerLSBPerG - 1000 / range.milligPerLSB) < 0.01)
        try rig.driver.start()
        rig.advance(periods: 3.75)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 3)
        for reading in readings {
            #expect(Self.close(reading.acceleration, Self.gravity, lsb: range.milligPerLSB / 1000), "\(reading.acceleration)")
        }
    }

    @Test(arguments: [(Float(250), UInt8(0b00), Float(8.75)), (500, 0b01, 17.5), (1000, 0b10, 35), (2000, 0b11, 70), (251, 0b01, 17.5)])
    func gyroscopeScaleAtEachRange(range: (asked: Float, code: UInt8, millidegreesPerLSB: Float)) throws {
        let rig = try Self.rig()
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200, gyroscopeRange: range.asked))
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

    @Test func ratesAreTheNearestAtOrAbove() throws {
        let rig = try Self.rig()
        try rig.driver.reset()
        for (asked, chosen, code) in [(10.0, 12.5, 1), (26, 26, 2), (200, 208, 5), (417, 417, 6), (1000, 1667, 8), (6000, 6667, 10), (9000, 6667, 10)] {
            let configuration = try rig.driver.configure(IMURequest(rateHz: asked))
            #expect(configuration.rateHz == chosen)
            #expect(Int(rig.chip.registers[0x09] & 0x0F) == code)
            #expect(Int(rig.chip.registers[0x09] >> 4) == code)
        }
    }

    // MARK: FIFO

    /// Every size, then the gyroscope word of the next slot alone: it waits in the driver for
    /// its accelerometer word.
    @Test func drainsEverySizeAndALoneWordWaits() throws {
        for count in 0...9 {
            let rig = try Self.running()
            rig.advance(periods: Double(count) + 0.75)
            let (readings, report) = try rig.drain()
            #expect(readings.count == count)
            #expect(report == IMUDrainReport(count: count))
            Self.expectSteady(readings, rig.driver.configuration)
            rig.advance(periods: 0.5)
            let (none, lone) = try rig.drain()
            #expect(none.isEmpty)
            #expect(lone.partialBytes == 7)
            #expect(rig.chip.fifoWords == 0, "the lone word was read")
            rig.advance(periods: 0.5)
            let (one, paired) = try rig.drain()
            #expect(one.count == 1)
            #expect(paired.partialBytes == 0)
            Self.expectSteady(one, rig.driver.configuration)
        }
    }

    @Test func aLongDrainIsOneReadThatRollsBack() throws {
        let rig = try Self.running()
        rig.advance(periods: 200.75)
        rig.bus.resetStatistics()
        let (readings, report) = try rig.drain()
        #expect(readings.count == 200)
        #expect(!report.overflowed)
        #expect(rig.bus.statistics.reads == 2, "the status, then 400 words from 0x78 in one read")
        #expect(rig.bus.statistics.bytesRead == 2 + 400 * 7)
        Self.expectSteady(readings, rig.driver.configuration)
    }

    @Test func anOverrunResetsTheFIFO() throws {
        let rig = try Self.running()
        rig.advance(periods: 1000)  // 2000 words into 512
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty)
        #expect(report.overflowed)
        #expect(report.detail?.contains("overrun") == true, "\(String(describing: report.detail))")
        #expect(rig.chip.fifoWords == 0)
        rig.advance(periods: 4.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 4)
        #expect(!next.overflowed)
        Self.expectSteady(after, rig.driver.configuration)
    }

    /// Held up between the status and the data read for longer than the FIFO holds (256 slots,
    /// 1.2 s at 208 Hz), the FIFO overwrote its oldest words. The tagged words read are whole
    /// and paired, but they are not those counted: they follow a gap. OVR_LATCHED says so, and
    /// the batch is a break then, not one drain later after it was pushed as motion.
    @Test func aFIFOThatOverflowsDuringTheReadIsABreakNotMotion() throws {
        let rig = try Self.running()
        rig.advance(periods: 10.75)
        rig.bus.stallOnce(nanoseconds: 2_000_000_000, at: Self.address, register: 0x3A)
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty, "\(readings.count) readings after a gap")
        #expect(report.overflowed, "\(report)")
        rig.advance(periods: 4.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 4 && !next.overflowed, "\(next)")
        Self.expectSteady(after, rig.driver.configuration)
    }

    @Test func aCorruptedCountIsAnOverflow() throws {
        let rig = try Self.running()
        rig.advance(periods: 3.75)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(readings.isEmpty)
        #expect(report.overflowed)
        #expect(report.detail?.contains("1023 words of 512") == true, "\(String(describing: report.detail))")
        rig.advance(periods: 2.75)
        let (after, next) = try rig.drain()
        #expect(after.count == 2)
        #expect(!next.overflowed)
    }

    /// A drain cut short after one word took a gyroscope word: its accelerometer word is
    /// dropped, and the following slots pair correctly.
    @Test func pairsRealignAfterAPartialRead() throws {
        let rig = try Self.running()
        rig.advance(periods: 4.75)
        let word = try rig.bus.read(address: Self.address, register: 0x78, count: 7)
        #expect(word[0] >> 3 == 0x01, "a gyroscope word first")
        let (readings, report) = try rig.drain()
        #expect(readings.count == 3)
        #expect(!report.overflowed)
        Self.expectSteady(readings, rig.driver.configuration)
        rig.advance(periods: 1)
        #expect(try rig.drain().0.count == 1)
    }

    /// The data sheet does not fix which sensor's word a slot holds first. Either way a reading
    /// pairs the two words of one slot (TAG_CNT), not a slot's gyroscope word with the next
    /// slot's accelerometer word: the motion ramps, so each reading shows the times of its two
    /// words, half a period apart in the simulator, with the sign of their order.
    @Test(arguments: [false, true])
    func wordsPairByTheirSlotInEitherOrder(accelerometerFirst: Bool) throws {
        struct Ramp: SimulatedMotion {
            func reading(atSeconds seconds: Double) -> IMUReading {
                IMUReading(acceleration: SIMD3(Float(seconds), 0, 1), angularRate: SIMD3(Float(seconds) * 100, 0, 0))
            }
        }
        let rig = try Self.rig(motion: Ramp())
        rig.chip.accelerometerFirst = accelerometerFirst
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 200))
        try rig.driver.start()
        rig.advance(periods: 10.75)
        let (readings, report) = try rig.drain()
        #expect(readings.count == 10 && report.partialBytes == 0, "\(readings.count) readings, \(report)")
        let period = 1 / configuration.rateHz
        for reading in readings {
            let gyroscopeLead = Double(reading.angularRate.x) / 100 - Double(reading.acceleration.x)
            #expect(abs(gyroscopeLead - (accelerometerFirst ? 0.5 : -0.5) * period) < 0.25 * period,
                    "gyroscope word \(gyroscopeLead / period) periods after its accelerometer word")
        }
    }

    // MARK: Polling

    @Test func polledModeReadsTheDataRegistersOnDataReady() throws {
        let rig = try Self.running(IMURequest(rateHz: 50, accelerometerRange: 2, gyroscopeRange: 250, useFIFO: false))
        let configuration = try #require(rig.driver.configuration)
        #expect(configuration.rateHz == 52)
        #expect(configuration.fifoCapacity == 0)
        #expect(configuration.watermark == 1)
        #expect(rig.chip.registers[0x0A] == 0)
        #expect(try rig.drain().0.isEmpty)
        rig.advance(periods: 1.2, rate: 52)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 1)
        Self.expectSteady(readings, configuration)
        #expect(try rig.drain().0.isEmpty)
    }

    // MARK: Power and bus

    @Test func resetWorksAfterAPowerCycle() throws {
        let rig = try Self.running()
        rig.advance(periods: 5)
        rig.chip.powerCycle()
        #expect(rig.chip.registers[0x10] == 0)
        #expect(rig.chip.fifoWords == 0)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest(rateHz: 200))
        try rig.driver.start()
        rig.advance(periods: 2.75)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 2)
        Self.expectSteady(readings, rig.driver.configuration)
    }

    @Test func anUnpluggedChipIsATransientBusError() throws {
        let rig = try Self.running()
        rig.advance(periods: 2)
        rig.bus.setFault(.unplugged, at: Self.address)
        do {
            _ = try rig.drain()
            Issue.record("drained an unplugged chip")
        } catch {
            #expect(error.isTransient)
        }
        rig.bus.setFault(nil, at: Self.address)
        #expect(rig.chip.registers[0x10] == 0, "replugged: powered on from scratch")
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest(rateHz: 200))
        try rig.driver.start()
        rig.advance(periods: 1.75)
        #expect(try rig.drain().0.count == 1)
    }
}

import Testing
@testable import DeviceLink

/// The ADXL345 (±2…16 g, full resolution) and ADXL375 (±200 g) driver against their simulator.
/// Register numbers are the data sheet's, written out.
@Suite struct ADXL345DriverTests {
    /// x ramps 1 g per second (wrapping at 8 g): a skipped, repeated or misordered entry shows.
    struct RampMotion: SimulatedMotion {
        func reading(atSeconds seconds: Double) -> IMUReading {
            IMUReading(acceleration: SIMD3(Float(seconds.truncatingRemainder(dividingBy: 8)), -0.25, 1))
        }
    }

    struct SteadyMotion: SimulatedMotion {
        var acceleration: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration) }
    }

    struct Rig {
        let clock = ManualIMUClock()
        let bus: SimulatedI2CBus
        let chip: SimulatedADXL345
        let driver: ADXL345Driver

        init(_ family: IMUFamily, motion: any SimulatedMotion = RampMotion()) throws {
            bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
            let model = try #require(IMUModel.first(of: family))
            let address = SimulatedIMUBoard.attach(model, to: bus, motion: motion)
            chip = try #require(bus.device(at: address) as? SimulatedADXL345)
            driver = ADXL345Driver(model: model, bus: bus, address: address, clock: clock)
        }

        func register(_ address: Int) -> UInt8 { chip.registers[address] }
        func advance(periods: Double, rate: Double) { clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded(.up))) }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }

        func started(_ request: IMURequest = IMURequest()) throws -> IMUConfiguration {
            try driver.reset()
            let configuration = try driver.configure(request)
            try driver.start()
            return configuration
        }
    }

    @Test(arguments: [IMUFamily.adxl345, .adxl375])
    func configurationWritesRateFormatAndStreamMode(family: IMUFamily) throws {
        let rig = try Rig(family)
        let configuration = try rig.started(IMURequest(rateHz: 200, accelerometerRange: 16))
        #expect(configuration.rateHz == 200)
        #expect(rig.register(0x2C) == 0x0B, "BW_RATE 200 Hz")
        #expect(rig.register(0x31) == (family == .adxl345 ? 0x0B : 0x0B), "FULL_RES with ±16 g; the ADXL375's fixed bits")
        #expect(rig.register(0x38) == 0x80 | UInt8(configuration.watermark), "stream mode with the watermark")
        #expect(rig.register(0x2D) == 0x08, "measuring")
        #expect(configuration.watermark == 4 && configuration.fifoCapacity == 32)
        #expect(configuration.gyroscopeRange == 0)
        #expect(configuration.accelerometerRange == (family == .adxl345 ? 16 : 200))
    }

    /// FULL_RES keeps 3.9 mg/LSB (256 LSB/g) at every range; the range bits only widen it.
    @Test(arguments: [(Float(2), UInt8(0x08)), (4, 0x09), (8, 0x0A), (16, 0x0B)])
    func scalingAtEachRangeOfTheADXL345(range: Float, format: UInt8) throws {
        let value = SIMD3<Float>(range * 0.9, -0.3, 1.0 / 3)
        let rig = try Rig(.adxl345, motion: SteadyMotion(acceleration: value))
        let configuration = try rig.started(IMURequest(rateHz: 100, accelerometerRange: range, useFIFO: false))
        #expect(rig.register(0x31) == format)
        #expect(configuration.accelerometerLSBPerG == 256)
        rig.advance(periods: 1.5, rate: 100)
        let (readings, _) = try rig.drain()
        let reading = try #require(readings.first)
        for axis in 0..<3 { #expect(abs(reading.acceleration[axis] - value[axis]) <= 1 / 256) }
    }

    /// The ADXL375: 49 mg/LSB, and a 150 g crash is not clipped.
    @Test func theADXL375MeasuresACrashWithoutClipping() throws {
        let rig = try Rig(.adxl375, motion: SteadyMotion(acceleration: SIMD3(150, -40, 1)))
        let configuration = try rig.started(IMURequest(rateHz: 400, accelerometerRange: 200))
        #expect(abs(configuration.accelerometerLSBPerG - 20.408) < 0.01)
        rig.advance(periods: 4, rate: 400)
        let (readings, _) = try rig.drain()
        let reading = try #require(readings.last)
        #expect(abs(reading.acceleration.x - 150) <= 0.049 && abs(reading.acceleration.y + 40) <= 0.049)
    }

    @Test func rangesBeyondThePartAreRefused() throws {
        let rig = try Rig(.adxl345)
        try rig.driver.reset()
        #expect(throws: IMUError.self) { _ = try rig.driver.configure(IMURequest(accelerometerRange: 100)) }
    }

    @Test func ratesAreTheNearestAtOrAbove() throws {
        let rig = try Rig(.adxl345)
        try rig.driver.reset()
        #expect(try rig.driver.configure(IMURequest(rateHz: 100)).rateHz == 100)
        #expect(try rig.driver.configure(IMURequest(rateHz: 1000)).rateHz == 1600)
        #expect(rig.register(0x2C) == 0x0E)
        #expect(try rig.driver.configure(IMURequest(rateHz: 3200)).rateHz == 3200)
    }

    /// Every entry count from 0 to 31, each entry popped once and in order.
    @Test func drainsEveryCountInOrder() throws {
        let rig = try Rig(.adxl345)
        _ = try rig.started(IMURequest(rateHz: 100, watermark: 16))
        var all: [IMUReading] = []
        for count in 0...31 {
            rig.advance(periods: Double(count), rate: 100)
            let (readings, report) = try rig.drain()
            #expect(!report.overflowed)
            #expect(abs(readings.count - count) <= 1, "\(readings.count) for \(count)")
            all += readings
        }
        let steps = zip(all, all.dropFirst()).map { $1.acceleration.x - $0.acceleration.x }
        #expect(steps.allSatisfy { abs($0 - 0.01) < 0.006 }, "one entry per 10 ms, none skipped or repeated")
    }

    @Test func anOverrunResetsTheFIFOAndTheNextDrainIsNormal() throws {
        let rig = try Rig(.adxl345)
        _ = try rig.started(IMURequest(rateHz: 200))
        rig.advance(periods: 100, rate: 200)
        let (lost, report) = try rig.drain()
        #expect(report.overflowed && lost.isEmpty)
        #expect(report.detail == "FIFO overrun")
        #expect(rig.register(0x38) & 0xC0 == 0x80, "back in stream mode")
        rig.advance(periods: 4, rate: 200)
        let (readings, after) = try rig.drain()
        #expect(!after.overflowed && (3...5).contains(readings.count))
    }

    /// The thread held up for 200 ms right after INT_SOURCE said all was well: the FIFO filled
    /// and overran meanwhile, so its full count is checked against INT_SOURCE again and the
    /// drain is a break, not 32 entries stitched onto the last batch.
    @Test func anOverrunDuringTheDrainIsStillSeen() throws {
        let rig = try Rig(.adxl345)
        _ = try rig.started(IMURequest(rateHz: 200))
        rig.advance(periods: 4, rate: 200)
        _ = try rig.drain()
        rig.advance(periods: 4, rate: 200)
        rig.bus.stallOnce(nanoseconds: 200_000_000, at: 0x53, register: 0x30)
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty, "\(readings.count) readings")
        #expect(report.detail == "FIFO overrun")
    }

    @Test func aCorruptedEntryCountIsAnOverflow() throws {
        let rig = try Rig(.adxl345)
        _ = try rig.started()
        rig.advance(periods: 4, rate: 200)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(report.detail?.contains("63 entries") == true)
    }

    @Test func polledModeReadsOnDataReady() throws {
        let rig = try Rig(.adxl345)
        let configuration = try rig.started(IMURequest(rateHz: 100, useFIFO: false))
        #expect(configuration.fifoCapacity == 0 && configuration.watermark == 1)
        #expect(rig.register(0x38) & 0xC0 == 0, "bypass")
        rig.advance(periods: 1.2, rate: 100)
        #expect(try rig.drain().0.count == 1)
        #expect(try rig.drain().0.isEmpty, "no new data yet")
    }

    @Test func anUnpluggedPartIsATransientBusErrorAndWorksAfterReplug() throws {
        let rig = try Rig(.adxl345)
        _ = try rig.started()
        rig.bus.setFault(.unplugged, at: 0x53)
        #expect { _ = try rig.drain() } throws: { ($0 as? IMUError)?.isTransient == true }
        rig.bus.setFault(nil, at: 0x53)
        #expect(rig.register(0x2D) == 0, "power-on standby after the replug")
        _ = try rig.started()
        rig.advance(periods: 8, rate: 200)
        #expect(try rig.drain().0.count >= 7)
    }
}

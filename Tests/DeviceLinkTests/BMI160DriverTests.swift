import Testing
@testable import DeviceLink

/// The BMI160 driver against its simulator. Register numbers are the data sheet's, written out.
@Suite struct BMI160DriverTests {
    struct SteadyMotion: SimulatedMotion {
        var acceleration: SIMD3<Float>
        var angularRate: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    /// x ramps 1 g and 100 °/s per second: a skipped, repeated or misaligned frame shows.
    struct RampMotion: SimulatedMotion {
        func reading(atSeconds seconds: Double) -> IMUReading {
            let x = Float(seconds.truncatingRemainder(dividingBy: 8))
            return IMUReading(acceleration: SIMD3(x, -0.25, 1), angularRate: SIMD3(100 * x, -50, 12.5))
        }
    }

    struct Rig {
        let clock = ManualIMUClock()
        let bus: SimulatedI2CBus
        let chip: SimulatedBMI160
        let driver: BMI160Driver

        init(motion: any SimulatedMotion = RampMotion()) throws {
            bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
            let model = try #require(IMUModel.first(of: .bmi160))
            SimulatedIMUBoard.attach(model, to: bus, address: 0x68, motion: motion)
            chip = try #require(bus.device(at: 0x68) as? SimulatedBMI160)
            driver = BMI160Driver(model: model, bus: bus, address: 0x68, clock: clock)
        }

        func register(_ address: Int) -> UInt8 { chip.registers[address] }
        func advance(periods: Double, rate: Double) { clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded(.up))) }

        func started(_ request: IMURequest = IMURequest()) throws -> IMUConfiguration {
            try driver.reset()
            let configuration = try driver.configure(request)
            try driver.start()
            return configuration
        }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }
    }

    @Test func configurationWritesRatesRangesAndTheFIFO() throws {
        let rig = try Rig()
        let configuration = try rig.started(IMURequest(rateHz: 200, accelerometerRange: 8, gyroscopeRange: 1000))
        #expect(configuration.rateHz == 200)
        #expect(rig.register(0x40) == 0x29 && rig.register(0x42) == 0x29, "ODR code 9 (200 Hz), normal filter")
        #expect(rig.register(0x41) == 0x08 && rig.register(0x43) == 0x01, "±8 g, ±1000 °/s")
        #expect(rig.register(0x47) == 0xC0, "gyroscope and accelerometer, headerless")
        #expect(rig.register(0x46) == UInt8(configuration.watermark * 3), "watermark in 4-byte units")
        #expect(try rig.bus.readRegister(address: 0x68, register: 0x03) == 0x14, "both sensors in normal mode")
        #expect(configuration.fifoCapacity == 84)
        #expect(try rig.driver.configure(IMURequest(rateHz: 1000)).rateHz == 1600, "the nearest rate at or above")
    }

    @Test(arguments: [(Float(2), UInt8(0x03), Float(16384)), (4, 0x05, 8192), (8, 0x08, 4096), (16, 0x0C, 2048)])
    func accelerometerScaleAtEachRange(range: Float, code: UInt8, lsb: Float) throws {
        let value = SIMD3<Float>(range * 0.9, -0.3, 1.0 / 3)
        let rig = try Rig(motion: SteadyMotion(acceleration: value, angularRate: SIMD3(10, 0, 0)))
        let configuration = try rig.started(IMURequest(rateHz: 100, accelerometerRange: range))
        #expect(rig.register(0x41) == code && configuration.accelerometerLSBPerG == lsb)
        rig.advance(periods: 3, rate: 100)
        let reading = try #require(try rig.drain().0.last)
        for axis in 0..<3 { #expect(abs(reading.acceleration[axis] - value[axis]) <= 1 / lsb) }
    }

    @Test(arguments: [(Float(125), UInt8(4), Float(262.4)), (250, 3, 131.2), (500, 2, 65.6), (1000, 1, 32.8), (2000, 0, 16.4)])
    func gyroscopeScaleAtEachRange(range: Float, code: UInt8, lsb: Float) throws {
        let value = SIMD3<Float>(range * 0.9, -range / 3, 0.5)
        let rig = try Rig(motion: SteadyMotion(acceleration: SIMD3(0, 0, 1), angularRate: value))
        let configuration = try rig.started(IMURequest(rateHz: 100, gyroscopeRange: range))
        #expect(rig.register(0x43) == code && configuration.gyroscopeLSBPerDPS == lsb)
        rig.advance(periods: 3, rate: 100)
        let reading = try #require(try rig.drain().0.last)
        for axis in 0..<3 { #expect(abs(reading.angularRate[axis] - value[axis]) <= 1 / lsb) }
    }

    /// Every frame count from 0 to 36 (6.7 s, inside the ramp's 8 s); frames are written whole,
    /// so none is ever partial; each frame once, in order.
    @Test func drainsEverySizeInOrder() throws {
        let rig = try Rig()
        _ = try rig.started(IMURequest(rateHz: 100))
        var all: [IMUReading] = []
        for count in 0...36 {
            rig.advance(periods: Double(count), rate: 100)
            let (readings, report) = try rig.drain()
            #expect(!report.overflowed && report.partialBytes == 0)
            #expect(abs(readings.count - count) <= 1, "\(readings.count) for \(count)")
            all += readings
        }
        let steps = zip(all, all.dropFirst()).map { $1.acceleration.x - $0.acceleration.x }
        #expect(steps.allSatisfy { abs($0 - 0.01) < 0.001 }, "one frame per 10 ms, none skipped or repeated")
        let gyroSteps = zip(all, all.dropFirst()).map { $1.angularRate.x - $0.angularRate.x }
        #expect(gyroSteps.allSatisfy { abs($0 - 1) < 0.1 }, "the gyroscope half of each frame in step")
    }

    @Test func aFullFIFOIsFlushedAndReportedThenDrainsNormally() throws {
        let rig = try Rig()
        _ = try rig.started(IMURequest(rateHz: 200))
        rig.advance(periods: 200, rate: 200)
        let (lost, report) = try rig.drain()
        #expect(report.overflowed && lost.isEmpty)
        #expect(report.detail?.hasPrefix("FIFO full") == true)
        rig.advance(periods: 4, rate: 200)
        let (readings, after) = try rig.drain()
        #expect(!after.overflowed && (3...5).contains(readings.count))
    }

    @Test func aCorruptedLengthIsAnOverflow() throws {
        let rig = try Rig()
        _ = try rig.started()
        rig.advance(periods: 4, rate: 200)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(report.detail == "FIFO length 2047 exceeds 1024 bytes")
    }

    @Test func polledModeReadsOnDataReady() throws {
        let rig = try Rig()
        let configuration = try rig.started(IMURequest(rateHz: 100, useFIFO: false))
        #expect(configuration.fifoCapacity == 0 && rig.register(0x47) == 0)
        rig.advance(periods: 1.5, rate: 100)
        #expect(try rig.drain().0.count == 1)
        #expect(try rig.drain().0.isEmpty, "drdy_acc cleared by the read")
    }

    @Test func resetAfterAPowerCycleStartsItAgain() throws {
        let rig = try Rig()
        _ = try rig.started()
        rig.bus.setFault(.unplugged, at: 0x68)
        #expect { _ = try rig.drain() } throws: { ($0 as? IMUError)?.isTransient == true }
        rig.bus.setFault(nil, at: 0x68)
        #expect(try rig.bus.readRegister(address: 0x68, register: 0x03) == 0, "suspended after power-on")
        _ = try rig.started()
        rig.advance(periods: 8, rate: 200)
        #expect(try rig.drain().0.count >= 7)
    }

    @Test func anotherChipIsRefused() throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        SimulatedIMUBoard.attach(try #require(IMUModel.first(of: .itg3200)), to: bus, address: 0x68, motion: RestingMotion())
        let driver = BMI160Driver(model: try #require(IMUModel.first(of: .bmi160)), bus: bus, address: 0x68, clock: clock)
        #expect { try driver.reset() } throws: { error in
            if case .wrongIdentity(_, _, _, _, let found, _) = error as? IMUError { return found == 0x68 }
            return false
        }
    }
}

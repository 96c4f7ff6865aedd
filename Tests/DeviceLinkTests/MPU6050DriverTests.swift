import Testing
@testable import DeviceLink

/// The MPU driver against its register-level simulator, for every model of both families (the
/// MPU-6050's 1 KB FIFO and one DLPF; the 6500-type parts' 512 B FIFO and ACCEL_CONFIG_2).
/// Register addresses are the data sheet's numbers, written out, so a wrong constant shared by
/// driver and simulator still fails here.
@Suite struct MPU6050DriverTests {
    /// Constant acceleration and rotation.
    struct SteadyMotion: SimulatedMotion {
        var acceleration: SIMD3<Float>
        var angularRate: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: acceleration, angularRate: angularRate) }
    }

    /// A different value every sample (x ramps 1 g per second, wrapping at 8 g), so a drain that
    /// skips, repeats or misaligns records shows.
    struct RampMotion: SimulatedMotion {
        static func value(atSeconds seconds: Double) -> IMUReading {
            let x = Float(seconds.truncatingRemainder(dividingBy: 8))
            return IMUReading(acceleration: SIMD3(x, -0.25, 1), angularRate: SIMD3(100 * x, -50, 12.5))
        }
        func reading(atSeconds seconds: Double) -> IMUReading { Self.value(atSeconds: seconds) }
    }

    struct Rig {
        let clock: ManualIMUClock
        let bus: SimulatedI2CBus
        let chip: SimulatedMPU6050
        let driver: MPU6050Driver
        let address: UInt8

        init(_ model: IMUModel, chipModel: IMUModel? = nil, motion: any SimulatedMotion = RampMotion()) throws {
            clock = ManualIMUClock()
            bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
            address = SimulatedIMUBoard.attach(chipModel ?? model, to: bus, motion: motion)
            chip = try #require(bus.device(at: address) as? SimulatedMPU6050)
            driver = MPU6050Driver(model: model, bus: bus, address: address, clock: clock)
        }

        func register(_ address: Int) -> UInt8 { chip.registers[address] }

        /// Samples the chip made while its sensors started, which `start()` waits out and empties:
        /// the first sample read is this one (0-based) of the motion.
        func startupSamples(rate: Double) -> Int {
            Int((Double(MPU6050Register.gyroscopeStartupNanoseconds(chip.model.family)) * rate / 1e9).rounded(.down))
        }

        /// Advances the clock by `periods` sample periods of `rate`.
        func advance(periods: Double, rate: Double) { clock.advance(nanoseconds: Int64((periods * 1e9 / rate).rounded(.up))) }

        func drain() throws(IMUError) -> ([IMUReading], IMUDrainReport) {
            var readings: [IMUReading] = []
            let report = try driver.drain(into: &readings)
            return (readings, report)
        }
    }

    static let models = IMUModel.catalog.filter { $0.family == .mpu6050 || $0.family == .mpu6500 }
    static let accelLSB: [Float] = [16384, 8192, 4096, 2048]
    static let gyroLSB: [Float] = [131, 65.5, 32.8, 16.4]

    static func expectClose(_ reading: IMUReading, _ expected: IMUReading, lsbPerG: Float, lsbPerDPS: Float,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for axis in 0..<3 {
            #expect(abs(reading.acceleration[axis] - expected.acceleration[axis]) <= 1 / lsbPerG, "accel \(axis)", sourceLocation: sourceLocation)
            #expect(abs(reading.angularRate[axis] - expected.angularRate[axis]) <= 1 / lsbPerDPS, "gyro \(axis)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: models)
    func resetWakesThePartOnThePLL(model: IMUModel) throws {
        let rig = try Rig(model)
        // Leave it running with odd settings, as a crashed daemon would.
        try rig.bus.write(address: rig.address, register: 0x19, bytes: [9, 6, 0x08, 0x10])
        try rig.driver.reset()
        #expect(rig.register(0x6B) == 0x01)
        #expect(rig.register(0x19) == 0 && rig.register(0x1A) == 0 && rig.register(0x1B) == 0 && rig.register(0x1C) == 0)
        #expect(rig.clock.nowNanoseconds() - 1_000_000_000 >= 100_000_000, "waited after H_RESET")
    }

    @Test(arguments: models)
    func aDifferentChipIsRefusedAndNotReset(model: IMUModel) throws {
        let other = try #require(Self.models.first { !model.identityValues.contains($0.identityValues[0]) })
        let rig = try Rig(model, chipModel: other)
        let powerOn = rig.register(0x6B)
        #expect(throws: IMUError.wrongIdentity(chip: model.name, bus: "test-i2c", address: rig.address, register: 0x75,
                                               found: other.identityValues[0], expected: model.identityValues)) {
            try rig.driver.reset()
        }
        #expect(rig.register(0x6B) == powerOn)
    }

    @Test(arguments: models)
    func configurationWritesTheRegisters(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest())
        let is6500 = model.family == .mpu6500
        #expect(rig.register(0x19) == 4)               // 1 kHz / (1 + 4) = 200 Hz
        #expect(rig.register(0x1A) == 3)               // DLPF_CFG 3: 44 Hz, nearest rate / 4
        #expect(rig.register(0x1B) == 0x18)            // ±2000 °/s
        #expect(rig.register(0x1C) == 0x18)            // ±16 g
        #expect(rig.register(0x1D) == (is6500 ? 3 : 0)) // A_DLPF_CFG on the 6500 only
        #expect(rig.register(0x23) == 0x78)            // FIFO_EN: accelerometer and gyroscope
        #expect(rig.register(0x38) == 0x10)            // FIFO_OFLOW_EN
        #expect(rig.register(0x6C) == 0x3F, "no measuring before start")
        #expect(rig.register(0x6A) & 0x40 == 0)
        #expect(configuration == IMUConfiguration(
            model: model.name, rateHz: 200, accelerometerRange: 16, gyroscopeRange: 2000, accelerometerLSBPerG: 2048, gyroscopeLSBPerDPS: 16.4,
            lowPassHz: is6500 ? 44.8 : 44, fifoCapacity: is6500 ? 39 : 82, watermark: 4))
        #expect(rig.driver.configuration == configuration)

        try rig.driver.start()
        #expect(rig.register(0x6B) == 0x01 && rig.register(0x6C) == 0)
        #expect(rig.register(0x6A) == 0x40)
        #expect(rig.chip.isMeasuring)
    }

    @Test(arguments: models)
    func nearestSettingsNeverASmallerRange(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        var configuration = try rig.driver.configure(IMURequest(rateHz: 300, accelerometerRange: 3, gyroscopeRange: 300, lowPassHz: 20))
        #expect(rig.register(0x19) == 2 && abs(configuration.rateHz - 1000.0 / 3) < 1e-9)
        #expect(configuration.accelerometerRange == 4 && rig.register(0x1C) == 0x08)
        #expect(configuration.gyroscopeRange == 500 && rig.register(0x1B) == 0x08)
        #expect(rig.register(0x1A) == 4)
        configuration = try rig.driver.configure(IMURequest(rateHz: 1000, accelerometerRange: 2, gyroscopeRange: 250, lowPassHz: 1000, useFIFO: false))
        #expect(rig.register(0x19) == 0 && configuration.rateHz == 1000)
        #expect(rig.register(0x1C) == 0 && rig.register(0x1B) == 0 && rig.register(0x1A) == 1)
        configuration = try rig.driver.configure(IMURequest(rateHz: 1, accelerometerRange: 9, gyroscopeRange: 1001))
        #expect(rig.register(0x19) == 255 && configuration.accelerometerRange == 16 && configuration.gyroscopeRange == 2000)
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(rateHz: 1100)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(accelerometerRange: 24)) }
        #expect(throws: IMUError.self) { try rig.driver.configure(IMURequest(gyroscopeRange: 4000)) }
    }

    /// Each full scale: the counts the simulator makes at that range, scaled back by the data
    /// sheet's sensitivity, are the motion within one count.
    @Test(arguments: models, 0..<4)
    func scalingAtEachRange(model: IMUModel, code: Int) throws {
        let motion = SteadyMotion(acceleration: SIMD3(0.5, -0.25, 1), angularRate: SIMD3(100, -50, 12.5))
        let rig = try Rig(model, motion: motion)
        try rig.driver.reset()
        let ranges: [(Float, Float)] = [(2, 250), (4, 500), (8, 1000), (16, 2000)]
        let configuration = try rig.driver.configure(IMURequest(accelerometerRange: ranges[code].0, gyroscopeRange: ranges[code].1))
        #expect(rig.register(0x1C) == UInt8(code) << 3 && rig.register(0x1B) == UInt8(code) << 3)
        #expect(configuration.accelerometerLSBPerG == Self.accelLSB[code] && configuration.gyroscopeLSBPerDPS == Self.gyroLSB[code])
        try rig.driver.start()
        rig.advance(periods: 3, rate: 200)
        let (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 3))
        #expect(readings.count == 3)
        for reading in readings {
            Self.expectClose(reading, motion.reading(atSeconds: 0), lsbPerG: Self.accelLSB[code], lsbPerDPS: Self.gyroLSB[code])
        }
    }

    /// Every drain size from empty to the most the driver accepts, each with the right samples in
    /// order and one FIFO read; one more record is past the kernel's three-record margin.
    @Test(arguments: models)
    func drainsOfEverySize(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        var index = rig.startupSamples(rate: 200)
        for size in 0...configuration.fifoCapacity {
            rig.advance(periods: Double(size), rate: 200)
            rig.bus.resetStatistics()
            let (readings, report) = try rig.drain()
            #expect(report == IMUDrainReport(count: size), "size \(size)")
            #expect(readings.count == size)
            #expect(rig.bus.statistics.reads == (size == 0 ? 2 : 3), "status, count, then one read of every record")
            #expect(rig.bus.statistics.bytesRead == 3 + 12 * size)
            for reading in readings {
                Self.expectClose(reading, RampMotion.value(atSeconds: Double(index + 1) / 200), lsbPerG: 2048, lsbPerDPS: 16.4)
                index += 1
            }
        }
        rig.advance(periods: Double(configuration.fifoCapacity + 1), rate: 200)
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(rig.chip.fifo.count == 0)
    }

    /// A sensor's output is not valid for tens of milliseconds after it leaves standby (the
    /// simulator gives zeros, which would read as free fall and no rotation): start() waits it
    /// out and empties what the FIFO took meanwhile.
    @Test(arguments: models)
    func theStartUpOutputIsNeverRead(model: IMUModel) throws {
        let motion = SteadyMotion(acceleration: SIMD3(0.5, -0.25, 1), angularRate: SIMD3(100, -50, 12.5))
        let rig = try Rig(model, motion: motion)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.advance(periods: 4, rate: 200)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 4)
        for reading in readings {
            Self.expectClose(reading, IMUReading(acceleration: motion.acceleration, angularRate: motion.angularRate), lsbPerG: 2048, lsbPerDPS: 16.4)
        }
    }

    @Test(arguments: models)
    func aFractionOfAPeriodAddsNothingAndAPartialRecordStays(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.advance(periods: 0.5, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0))
        rig.advance(periods: 0.5, rate: 200)
        let (readings, _) = try rig.drain()
        #expect(readings.count == 1)
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(rig.startupSamples(rate: 200) + 1) / 200),
                         lsbPerG: 2048, lsbPerDPS: 16.4)

        // Someone read 5 bytes off the FIFO: 3 records less 5 bytes are 2 whole ones and 7 bytes.
        rig.advance(periods: 3, rate: 200)
        _ = try rig.bus.read(address: rig.address, register: 0x74, count: 5)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2, partialBytes: 7))
        #expect(rig.chip.fifo.count == 7)
    }

    @Test(arguments: models)
    func overflowResetsTheFIFOAndTheNextDrainIsNormal(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.advance(periods: 400, rate: 200)
        let (lost, report) = try rig.drain()
        #expect(report.overflowed && report.count == 0 && lost.isEmpty)
        #expect(report.detail?.contains("overflow") == true)
        #expect(rig.chip.fifo.count == 0)
        #expect(rig.register(0x6A) == 0x40, "FIFO enabled again")
        rig.advance(periods: 5, rate: 200)
        let (readings, next) = try rig.drain()
        #expect(next == IMUDrainReport(count: 5))
        for (offset, reading) in readings.enumerated() {
            Self.expectClose(reading, RampMotion.value(atSeconds: Double(rig.startupSamples(rate: 200) + 401 + offset) / 200),
                             lsbPerG: 2048, lsbPerDPS: 16.4)
        }
    }

    /// The simulator overflows as the part does: the FIFO stays full with its oldest bytes
    /// dropped mid-record, and INT_STATUS says so.
    @Test(arguments: models)
    func theSimulatedFIFOOverflowsMisaligned(model: IMUModel) throws {
        let motion = SteadyMotion(acceleration: SIMD3(0.5, -0.25, 1), angularRate: SIMD3(100, -50, 12.5))
        let rig = try Rig(model, motion: motion)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        let capacity = model.family == .mpu6050 ? 1024 : 512
        rig.advance(periods: 200, rate: 200)
        let count = try rig.bus.read(address: rig.address, register: 0x72, count: 2)
        #expect(Int(count[0]) << 8 | Int(count[1]) == capacity)
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x3A) & 0x10 != 0)
        #expect(try rig.bus.readRegister(address: rig.address, register: 0x3A) & 0x10 == 0, "cleared by the read")
        // 0.5 g, -0.25 g, 1 g at 2048 counts/g; 100, -50, 12.5 °/s at 16.4 counts per °/s.
        let record: [UInt8] = [0x04, 0x00, 0xFE, 0x00, 0x08, 0x00, 0x06, 0x68, 0xFC, 0xCC, 0x00, 0xCD]
        let head = try rig.bus.read(address: rig.address, register: 0x74, count: 12)
        #expect(head != record)
        #expect((1..<12).contains { Array(record[$0...] + record[..<$0]) == head }, "a record's tail, then the next one's head")
    }

    @Test(arguments: models)
    func aCorruptedCountIsAnOverflowWithDetail(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.advance(periods: 3, rate: 200)
        rig.chip.corruptNextFIFOCount = true
        let (readings, report) = try rig.drain()
        #expect(report.overflowed && readings.isEmpty)
        #expect(report.detail == "FIFO count 0xFFFF exceeds \(model.family == .mpu6050 ? 1024 : 512) bytes")
        #expect(rig.chip.fifo.count == 0)
        rig.advance(periods: 2, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 2))
    }

    @Test(arguments: models)
    func polledReadsTheNewestSampleOnDataReady(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        let configuration = try rig.driver.configure(IMURequest(rateHz: 100, accelerometerRange: 8, gyroscopeRange: 1000, useFIFO: false))
        #expect(configuration.fifoCapacity == 0 && configuration.watermark == 1)
        #expect(rig.register(0x23) == 0 && rig.register(0x38) == 0x01)
        try rig.driver.start()
        #expect(rig.register(0x6A) & 0x40 == 0)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0))
        let first = rig.startupSamples(rate: 100)
        rig.advance(periods: 1, rate: 100)
        rig.bus.resetStatistics()
        var (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        #expect(rig.bus.statistics.reads == 2 && rig.bus.statistics.bytesRead == 15)
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(first + 1) / 100), lsbPerG: 4096, lsbPerDPS: 32.8)
        #expect(try rig.drain().1 == IMUDrainReport(count: 0), "data-ready cleared")
        rig.advance(periods: 3, rate: 100)
        (readings, report) = try rig.drain()
        #expect(report == IMUDrainReport(count: 1))
        Self.expectClose(try #require(readings.first), RampMotion.value(atSeconds: Double(first + 4) / 100), lsbPerG: 4096, lsbPerDPS: 32.8)
    }

    @Test(arguments: models)
    func stopPutsThePartToSleep(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        try rig.driver.stop()
        #expect(rig.register(0x6B) & 0x40 != 0 && rig.register(0x6A) & 0x40 == 0)
        #expect(!rig.chip.isMeasuring)
        rig.advance(periods: 10, rate: 200)
        #expect(try rig.bus.read(address: rig.address, register: 0x72, count: 2) == [0, 0])
    }

    @Test(arguments: models)
    func anUnpluggedPartIsATransientBusErrorAndResetsAfterReplug(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.bus.setFault(.unplugged, at: rig.address)
        do throws(IMUError) {
            _ = try rig.drain()
            Issue.record("drain succeeded on an unplugged part")
        } catch {
            #expect(error.isTransient)
            #expect(error.busError?.isDeviceGone == true)
        }
        rig.bus.setFault(nil, at: rig.address)
        #expect(rig.register(0x19) == 0 && rig.register(0x23) == 0, "power-on values after the replug")
        try rig.driver.reset()
        _ = try rig.driver.configure(IMURequest())
        try rig.driver.start()
        rig.advance(periods: 4, rate: 200)
        #expect(try rig.drain().1 == IMUDrainReport(count: 4))
    }

    @Test(arguments: models)
    func drainBeforeConfigureIsNotReady(model: IMUModel) throws {
        let rig = try Rig(model)
        try rig.driver.reset()
        var readings: [IMUReading] = []
        #expect(throws: IMUError.self) { _ = try rig.driver.drain(into: &readings) }
    }
}

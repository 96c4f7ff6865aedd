import Testing
@testable import DeviceLink

@Suite struct ITG3200DriverTests {
    struct SteadyMotion: SimulatedMotion {
        var angularRate: SIMD3<Float>
        func reading(atSeconds seconds: Double) -> IMUReading { IMUReading(acceleration: .zero, angularRate: angularRate) }
    }

    static func rig(_ motion: any SimulatedMotion) throws -> (ManualIMUClock, SimulatedI2CBus, SimulatedITG3200, ITG3200Driver) {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let model = try #require(IMUModel.first(of: .itg3200))
        let address = SimulatedIMUBoard.attach(model, to: bus, motion: motion)
        let chip = try #require(bus.device(at: address) as? SimulatedITG3200)
        return (clock, bus, chip, ITG3200Driver(model: model, bus: bus, address: address, clock: clock))
    }

    @Test func configurationWritesRateFullScaleAndFilter() throws {
        let (_, _, chip, driver) = try Self.rig(SteadyMotion(angularRate: .zero))
        try driver.reset()
        let configuration = try driver.configure(IMURequest(rateHz: 200))
        #expect(configuration.rateHz == 200)
        #expect(chip.registers[0x15] == 4, "1 kHz / (1 + 4)")
        #expect(chip.registers[0x16] & 0x18 == 0x18, "FS_SEL 3: ±2000 °/s")
        #expect(chip.registers[0x16] & 0x07 == 3, "DLPF 42 Hz, nearest a quarter of 200 Hz")
        #expect(chip.registers[0x3E] == 0x01, "PLL with the X gyroscope")
        #expect(configuration.fifoCapacity == 0 && configuration.watermark == 1)
        #expect(configuration.accelerometerRange == 0)
        #expect(throws: IMUError.self) { _ = try driver.configure(IMURequest(gyroscopeRange: 4000)) }
    }

    /// 14.375 LSB per °/s, big-endian; within one count of the motion.
    @Test func scalingMatchesTheDataSheet() throws {
        let rate = SIMD3<Float>(1234.5, -250, 0.7)
        let (clock, _, _, driver) = try Self.rig(SteadyMotion(angularRate: rate))
        try driver.reset()
        _ = try driver.configure(IMURequest(rateHz: 100))
        try driver.start()
        clock.advance(nanoseconds: 15_000_000)
        var readings: [IMUReading] = []
        #expect(try driver.drain(into: &readings).count == 1)
        let reading = try #require(readings.first)
        for axis in 0..<3 { #expect(abs(reading.angularRate[axis] - rate[axis]) <= 1 / 14.375) }
        // Data-ready was cleared by the read: nothing new until the next sample.
        #expect(try driver.drain(into: &readings).count == 0)
    }

    @Test func aWrongIdentityIsRefused() throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        SimulatedIMUBoard.attach(try #require(IMUModel.first(of: .bmi160)), to: bus, address: 0x68, motion: RestingMotion())
        let driver = ITG3200Driver(model: try #require(IMUModel.first(of: .itg3200)), bus: bus, address: 0x68, clock: clock)
        #expect { try driver.reset() } throws: { error in
            if case .wrongIdentity(_, _, _, _, let found, _) = error as? IMUError { return found == 0xD1 }
            return false
        }
    }
}

import Testing
@testable import DeviceLink

/// SisFall's ADXL345 + ITG-3200 read as one IMU: one reading per accelerometer entry, with the
/// gyroscope's rate on the same samples.
@Suite struct PairedIMUDriverTests {
    struct SteadyMotion: SimulatedMotion {
        func reading(atSeconds seconds: Double) -> IMUReading {
            IMUReading(acceleration: SIMD3(0.2, -0.1, 0.98), angularRate: SIMD3(120, -30, 5))
        }
    }

    /// The rate ramps 100 °/s per second, so interpolation between drains is checkable.
    struct RampingRate: SimulatedMotion {
        func reading(atSeconds seconds: Double) -> IMUReading {
            IMUReading(acceleration: SIMD3(0, 0, 1), angularRate: SIMD3(Float(100 * seconds), 0, 0))
        }
    }

    static func rig(_ motion: any SimulatedMotion) throws -> (ManualIMUClock, SimulatedI2CBus, PairedIMUDriver) {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let model = try #require(IMUModel.first(of: .adxl345ITG3200))
        let address = SimulatedIMUBoard.attach(model, to: bus, motion: motion)
        return (clock, bus, PairedIMUDriver(model: model, bus: bus, address: address, clock: clock))
    }

    @Test func mergesBothChipsOntoTheAccelerometersSamples() throws {
        let (clock, _, driver) = try Self.rig(SteadyMotion())
        try driver.reset()
        let configuration = try driver.configure(IMURequest(rateHz: 200))
        try driver.start()
        #expect(configuration.rateHz == 200 && configuration.accelerometerRange == 16 && configuration.gyroscopeRange == 2000)
        clock.advance(nanoseconds: 40_000_000)
        var readings: [IMUReading] = []
        let report = try driver.drain(into: &readings)
        #expect(report.count == readings.count && (7...8).contains(readings.count))
        for reading in readings {
            #expect(abs(reading.acceleration.x - 0.2) <= 1 / 256 && abs(reading.acceleration.z - 0.98) <= 1 / 256)
            #expect(abs(reading.angularRate.x - 120) <= 1 / 14.375 && abs(reading.angularRate.y + 30) <= 1 / 14.375)
        }
    }

    /// The gyroscope's addresses are shared with clocks and other IMUs: one a kernel driver has
    /// bound is not reset, and when no other answers, the claim is what the error says.
    @Test func aBoundGyroscopeAddressIsLeftAlone() throws {
        let (_, bus, driver) = try Self.rig(SteadyMotion())
        let claim = I2CClaim(driver: "rtc-ds1307", device: "1-0068")
        bus.claims[0x68] = claim
        #expect(throws: IMUError.claimed(chip: "ITG-3200 (the pair's gyroscope)", bus: "test-i2c", address: 0x68, claim: claim, unanswered: [0x69], besides: nil)) {
            try driver.reset()
        }
    }

    @Test func theGyroscopeIsInterpolatedAcrossADrain() throws {
        let (clock, _, driver) = try Self.rig(RampingRate())
        try driver.reset()
        _ = try driver.configure(IMURequest(rateHz: 100))
        try driver.start()
        var readings: [IMUReading] = []
        clock.advance(nanoseconds: 100_000_000)
        _ = try driver.drain(into: &readings)
        readings.removeAll()
        clock.advance(nanoseconds: 100_000_000)
        _ = try driver.drain(into: &readings)
        let rates = readings.map(\.angularRate.x)
        #expect(rates.count >= 9)
        // Rising evenly by about 1 °/s per 10 ms sample, not held flat then jumping.
        let steps = zip(rates, rates.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1) < 0.3 }, "\(steps)")
    }

    @Test func aMissingGyroscopeIsNamed() throws {
        let clock = ManualIMUClock()
        let bus = SimulatedI2CBus(name: "test-i2c", clock: clock)
        let adxl = try #require(IMUModel.first(of: .adxl345))
        SimulatedIMUBoard.attach(adxl, to: bus, motion: RestingMotion())
        let driver = PairedIMUDriver(model: try #require(IMUModel.first(of: .adxl345ITG3200)), bus: bus, address: 0x53, clock: clock)
        #expect { try driver.reset() } throws: { error in
            (error as? IMUError)?.description.contains("no ITG-3200 (the pair's gyroscope) answered at 0x68, 0x69") == true
        }
    }
}

import Testing
@testable import DeviceLink

@Suite struct InvenSenseSettingsTests {
    @Test func theDividerGivesTheNearestRate() throws {
        #expect(try InvenSenseSettings.divider(for: 200, baseHz: 1000, maximum: 255, chip: "MPU-6050") == 4)
        // 1000/3 = 333 Hz is nearer 300 than 1000/4 = 250 Hz.
        #expect(try InvenSenseSettings.divider(for: 300, baseHz: 1000, maximum: 255, chip: "MPU-6050") == 2)
        #expect(try InvenSenseSettings.divider(for: 1000, baseHz: 1000, maximum: 255, chip: "MPU-6050") == 0)
    }

    @Test func aRateBelowTheSlowestTakesTheLargestDivider() throws {
        #expect(try InvenSenseSettings.divider(for: 1, baseHz: 1000, maximum: 255, chip: "MPU-6050") == 255)
        // The quotient is beyond Int here: it must be clamped, not converted.
        #expect(try InvenSenseSettings.divider(for: 1e-300, baseHz: 1125, maximum: 4095, chip: "ICM-20948") == 4095)
    }

    @Test(arguments: [0, -5, .nan, .infinity, 1001])
    func aRateOutsideTheChipIsRefused(rate: Double) {
        #expect(throws: IMUError.self) { try InvenSenseSettings.divider(for: rate, baseHz: 1000, maximum: 255, chip: "MPU-6050") }
    }
}

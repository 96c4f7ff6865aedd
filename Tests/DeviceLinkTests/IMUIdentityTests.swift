import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct IMUIdentityTests {
    @Test func findsEachChipByItsIdentityRegister() throws {
        let bus = RegisterMapI2CBus()
        bus.attach(address: 0x68, registers: [0x75: 0x68])          // MPU-6050
        bus.attach(address: 0x6A, registers: [0x0F: 0x6C])          // LSM6DSO
        bus.attach(address: 0x69, registers: [0x00: 0xD1, 0x75: 0x00]) // BMI160 shares MPU addresses
        bus.attach(address: 0x53, registers: [0x00: 0xE5])          // ADXL345
        let found = try IMUIdentity.scan(bus)
        #expect(found.map(\.chip) == ["MPU-6050", "BMI160", "LSM6DSO", "ADXL345"])
        #expect(found[0].description == "MPU-6050 at 0x68 (register 0x75 = 0x68)")
    }

    /// Boards sold as MPU-6050 answer with their real die's identity; each maps to the driver
    /// whose register map it has.
    @Test(arguments: [
        (UInt8(0x68), "MPU-6050", IMUFamily.mpu6050), (0x70, "MPU-6500", .mpu6500), (0x71, "MPU-9250", .mpu6500),
        (0x73, "MPU-9255", .mpu6500), (0x98, "MPU-6050 clone (ICM-20689-type)", .mpu6500), (0x74, "MPU-6050 clone", .mpu6500),
        (0x78, "MPU-6050 clone", .mpu6500),
    ])
    func cloneAndSiblingIdentitiesAreRecognised(value: UInt8, chip: String, family: IMUFamily) throws {
        let bus = RegisterMapI2CBus()
        bus.attach(address: 0x68, registers: [0x75: value])
        let found = try IMUIdentity.scan(bus)
        #expect(found.map(\.chip) == [chip])
        #expect(found.first?.model.family == family)
    }

    @Test func anITG3200AnswersAtRegisterZeroWhereAnMPUDoesNot() throws {
        let bus = RegisterMapI2CBus()
        bus.attach(address: 0x68, registers: [0x00: 0x68])
        bus.attach(address: 0x69, registers: [0x00: 0x68, 0x75: 0x68]) // an MPU whose trim byte happens to read 0x68
        let found = try IMUIdentity.scan(bus)
        #expect(found.map(\.chip) == ["ITG-3200", "MPU-6050"])
    }

    @Test func unknownPartsAndEmptyBusesFindNothing() throws {
        let bus = RegisterMapI2CBus()
        #expect(try IMUIdentity.scan(bus).isEmpty)
        bus.attach(address: 0x68, registers: [0x75: 0x42]) // an RTC or a clone we do not know
        #expect(try IMUIdentity.scan(bus).isEmpty)
    }

    @Test func aStuckBusIsAnErrorNotAnEmptyScan() {
        let bus = RegisterMapI2CBus()
        bus.attach(address: 0x68, registers: [0x75: 0x68])
        bus.injectedErrno = ETIMEDOUT
        #expect(throws: I2CError.self) { _ = try IMUIdentity.scan(bus) }
    }
}

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
        let found = try IMUIdentity.scan(bus)
        #expect(found.map(\.chip) == ["MPU-6050", "BMI160", "LSM6DSO"])
        #expect(found[0].description == "MPU-6050 at 0x68 (register 0x75 = 0x68)")
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

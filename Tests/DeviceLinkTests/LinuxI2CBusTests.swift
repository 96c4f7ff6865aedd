import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct LinuxI2CBusTests {
    /// /dev/null accepts open() but not i2c ioctls: libi2c's call must come back as ENOTTY.
    @Test func libi2cCallOnANonI2CDeviceFailsWithENOTTY() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError(errno: ENOTTY, bus: "/dev/null", operation: "read register 0x75")) {
            _ = try bus.readByte(register: 0x75)
        }
        #expect(throws: I2CError.self) { try bus.select(address: 0x68) }
    }

    @Test func missingBusNamesThePathAndErrno() {
        #expect(throws: I2CError(errno: ENOENT, bus: "/dev/i2c-does-not-exist", operation: "open")) {
            _ = try LinuxI2CBus(path: "/dev/i2c-does-not-exist")
        }
    }

    @Test func unpluggedDeviceErrnosAreRecognised() {
        #expect(I2CError(errno: EREMOTEIO, bus: "b", operation: "o").isDeviceGone)
        #expect(!I2CError(errno: ETIMEDOUT, bus: "b", operation: "o").isDeviceGone)
    }
}

import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

@Suite struct LinuxI2CBusTests {
    /// /dev/null accepts open() but not i2c ioctls: libi2c's call must come back as ENOTTY.
    @Test func libi2cCallOnANonI2CDeviceFailsWithENOTTY() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError(errno: ENOTTY, bus: "/dev/null", operation: "read", register: 0x75)) {
            _ = try bus.readByte(register: 0x75)
        }
        #expect(throws: I2CError.self) { try bus.select(address: 0x68) }
    }

    /// The combined write-then-read goes through I2C_RDWR; its errno names bus, address and register.
    @Test func combinedReadNamesAddressAndRegister() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError(errno: ENOTTY, bus: "/dev/null", operation: "read 64 bytes", address: 0x68, register: 0x74)) {
            _ = try bus.read(address: 0x68, register: 0x74, count: 64)
        }
        #expect(throws: I2CError(errno: ENOTTY, bus: "/dev/null", operation: "write 1 bytes", address: 0x68, register: 0x6B)) {
            try bus.writeRegister(address: 0x68, register: 0x6B, value: 0x80)
        }
        let error = I2CError(errno: ENOTTY, bus: "/dev/null", operation: "read 64 bytes", address: 0x68, register: 0x74)
        #expect(error.description.hasPrefix("/dev/null at 0x68 register 0x74: read 64 bytes: "))
    }

    @Test func readsLongerThanI2CDevAllowsAreRefusedBeforeTheKernel() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError.self) { _ = try bus.read(address: 0x68, register: 0x74, count: 8193) }
        do {
            _ = try bus.read(address: 0x68, register: 0x74, count: 8193)
        } catch {
            #expect(error.errno == EINVAL)
        }
    }

    @Test func missingBusNamesThePathAndErrno() {
        #expect(throws: I2CError(errno: ENOENT, bus: "/dev/i2c-does-not-exist", operation: "open")) {
            _ = try LinuxI2CBus(path: "/dev/i2c-does-not-exist")
        }
    }

    @Test(arguments: [
        (EREMOTEIO, I2CError.Kind.deviceGone), (ENXIO, .deviceGone), (ENODEV, .deviceGone),
        (ETIMEDOUT, .busHung), (EBUSY, .busHung), (EAGAIN, .arbitrationLost), (EIO, .transferFailed), (EPROTO, .transferFailed),
        (ENOTTY, .other), (ENOENT, .other),
    ])
    func errnosMeanWhatTheKernelSays(errno: Int32, kind: I2CError.Kind) {
        let error = I2CError(errno: errno, bus: "b", operation: "o")
        #expect(error.kind == kind)
        #expect(error.isDeviceGone == (kind == .deviceGone))
        #expect(error.isTransient == (kind != .other))
    }
}

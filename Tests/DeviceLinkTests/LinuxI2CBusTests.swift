import Foundation
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

    /// sysfs as a dtoverlay leaves it: `1-0068/driver` links to the driver bound to it.
    @Test func aDriverBoundInSysfsClaimsTheAddress() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: "\(root)/bus/i2c/drivers/inv-mpu6050-i2c", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: "\(root)/bus/i2c/devices/1-0068", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: "\(root)/bus/i2c/devices/1-0069", withIntermediateDirectories: true) // instantiated, no driver
        try manager.createSymbolicLink(atPath: "\(root)/bus/i2c/devices/1-0068/driver", withDestinationPath: "../../../../bus/i2c/drivers/inv-mpu6050-i2c")
        // A udev link to the bus is followed to its number.
        try manager.createDirectory(atPath: "\(root)/dev", withIntermediateDirectories: true)
        _ = manager.createFile(atPath: "\(root)/dev/i2c-1", contents: nil)
        try manager.createSymbolicLink(atPath: "\(root)/dev/imu", withDestinationPath: "\(root)/dev/i2c-1")

        let bound = I2CClaim(driver: "inv-mpu6050-i2c", device: "1-0068")
        #expect(LinuxI2CBus.claim(busPath: "/dev/i2c-1", address: 0x68, sysfs: root) == bound)
        #expect(LinuxI2CBus.claim(busPath: "\(root)/dev/imu", address: 0x68, sysfs: root) == bound)
        #expect(LinuxI2CBus.claim(busPath: "/dev/i2c-1", address: 0x69, sysfs: root) == nil)
        #expect(LinuxI2CBus.claim(busPath: "/dev/i2c-1", address: 0x6A, sysfs: root) == nil)
        #expect(LinuxI2CBus.claim(busPath: "/dev/i2c-2", address: 0x68, sysfs: root) == nil)
        #expect(LinuxI2CBus.claim(busPath: "/dev/null", address: 0x68, sysfs: root) == nil)
        #expect(bound.description.contains("echo 1-0068 | sudo tee /sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind"))
    }

    /// EBUSY binding the fd to an address is a kernel driver's claim; on a transfer, a hung bus.
    @Test func ebusyMeansAClaimOnSelectAndAHungBusOnATransfer() {
        let select = I2CError(errno: EBUSY, bus: "/dev/i2c-1", operation: I2CError.selectOperation, address: 0x68)
        #expect(select.kind == .addressInUse)
        #expect(select.description.contains("a kernel driver has bound this address"))
        #expect(I2CError(errno: EBUSY, bus: "/dev/i2c-1", operation: "read 1 bytes", address: 0x68).kind == .busHung)
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

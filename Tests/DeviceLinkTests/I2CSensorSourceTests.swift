import FallDetect
import Testing
@testable import DeviceLink
#if canImport(Glibc)
import Glibc
#endif

/// The I2C seam of the live daemon, on the register-map simulator (this kernel has no I2C): it
/// says what it found and why it cannot stream yet, and turns bus errors into errors naming the bus.
@Suite struct I2CSensorSourceTests {
    static func run(_ source: I2CSensorSource) -> FallDetectError? {
        let ring = SampleRing(capacity: 16)
        let producer = ring.makeProducer()
        do {
            _ = try source.run(into: producer, batchWritten: {}, shouldStop: { false })
            return nil
        } catch {
            return error
        }
    }

    @Test func aFoundChipIsNamedWithWhatIsMissing() {
        let source = I2CSensorSource(busPath: "/dev/i2c-1", address: nil, sampleRate: 200) { _ throws(I2CError) in
            let bus = RegisterMapI2CBus(name: "/dev/i2c-1")
            bus.attach(address: 0x68, registers: [0x75: 0x68])
            return bus
        }
        let error = Self.run(source)
        #expect(error?.message.contains("found MPU-6050 at 0x68") == true, "\(String(describing: error))")
        #expect(error?.path == "/dev/i2c-1")
    }

    @Test func anAddressWithoutAChipIsNoData() {
        let source = I2CSensorSource(busPath: "/dev/i2c-1", address: 0x69, sampleRate: 200) { _ throws(I2CError) in
            let bus = RegisterMapI2CBus(name: "/dev/i2c-1")
            bus.attach(address: 0x68, registers: [0x75: 0x68])
            return bus
        }
        let error = Self.run(source)
        #expect(error?.code == .noData)
        #expect(error?.message == "no known IMU answered at 0x69")
    }

    @Test func aMissingBusNamesItsPathAndErrno() {
        let source = I2CSensorSource(busPath: "/dev/i2c-250", address: nil, sampleRate: 200)
        let error = Self.run(source)
        #expect(error?.code == .io)
        #expect(error?.path == "/dev/i2c-250")
        #expect(error?.errno == ENOENT, "\(String(describing: error))")
    }
}

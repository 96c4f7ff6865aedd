import FallDetect

/// The live daemon's IMU on an I2C bus: the seam the chip drivers plug into. Today it opens the
/// bus, finds and identifies the chip, and stops with a clear error, because the FIFO drivers
/// that stream samples are not written yet; the daemon reports that as a sensor fault and the
/// rest of it (API, workflow, GNSS, SOS) keeps running.
public final class I2CSensorSource: SensorSource {
    public let busPath: String
    public let address: UInt8?
    public let sampleRate: Double
    public let accelerometerRange: Float = 16
    /// Opens the bus: Linux's i2c-dev on a device, a register-map simulator in tests.
    private let openBus: @Sendable (String) throws(I2CError) -> any I2CBus
    public var summary: String { "I2C IMU on \(busPath)" + (address.map { " at \(Self.hex($0))" } ?? "") }

    public init(
        busPath: String, address: UInt8?, sampleRate: Double,
        openBus: @escaping @Sendable (String) throws(I2CError) -> any I2CBus = { path throws(I2CError) in try LinuxI2CBus(path: path) }
    ) {
        self.busPath = busPath
        self.address = address
        self.sampleRate = sampleRate
        self.openBus = openBus
    }

    public func run(
        into producer: borrowing SampleRing.Producer, batchWritten: () -> Void, shouldStop: () -> Bool
    ) throws(FallDetectError) -> SensorSourceEnd {
        let found: [IMUIdentity]
        do {
            let bus = try openBus(busPath)
            found = try IMUIdentity.scan(bus).filter { identity in address.map { $0 == identity.address } ?? true }
        } catch {
            throw FallDetectError(.io, error.description, path: busPath, errno: error.errno)
        }
        guard let chip = found.first else {
            throw FallDetectError(.noData, "no known IMU answered" + (address.map { " at \(Self.hex($0))" } ?? ""), path: busPath)
        }
        throw FallDetectError(
            .invalidArgument, "found \(chip), but its streaming driver is not written yet; use [sensor] source = \"replay\"", path: busPath)
    }

    static func hex(_ address: UInt8) -> String { "0x" + String(address, radix: 16) }
}

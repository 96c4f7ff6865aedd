/// Placeholder until this family's driver lands: identifies the chip and refuses to configure.
public final class LSM6DS3Driver: IMUDriver {
    public let model: IMUModel
    public let bus: any I2CBus
    public let address: UInt8
    public private(set) var configuration: IMUConfiguration?
    private let registers: ChipRegisters
    private let clock: any IMUClock

    public init(model: IMUModel, bus: any I2CBus, address: UInt8, clock: any IMUClock) {
        self.model = model
        self.bus = bus
        self.address = address
        self.clock = clock
        registers = ChipRegisters(bus: bus, address: address)
    }

    public func reset() throws(IMUError) { try registers.checkIdentity(of: model) }

    public func configure(_ request: IMURequest) throws(IMUError) -> IMUConfiguration {
        throw .unsupported(chip: model.name, setting: "driver", reason: "not written yet")
    }

    public func start() throws(IMUError) {}

    public func drain(into readings: inout [IMUReading]) throws(IMUError) -> IMUDrainReport { IMUDrainReport(count: 0) }

    public func stop() throws(IMUError) {}
}

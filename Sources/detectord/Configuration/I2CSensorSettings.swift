/// `[sensor.i2c]`: the bus and chip of a live IMU. Required when `sensor.source` is "i2c".
struct I2CSensorSettings: Sendable, Equatable {
    /// N of /dev/i2c-N; the Raspberry Pi's header bus is 1.
    var bus: Int
    /// The 7-bit address; nil scans the addresses IMUs answer at.
    var address: Int?
    var chip: I2CChip

    static let keys = ["bus", "address", "chip"]
    /// 7-bit addresses outside the ranges I2C reserves.
    static let addresses = 0x08...0x77

    init(bus: Int = 1, address: Int? = nil, chip: I2CChip = .auto) {
        self.bus = bus
        self.address = address
        self.chip = chip
    }

    init?(_ table: ConfigurationTable) {
        table.rejectUnknownKeys(known: Self.keys)
        let bus = table.contains("bus") ? table.integer("bus", in: 0...255) : 1
        let address = table.integer("address", in: Self.addresses, hexadecimal: true)
        let chip: I2CChip? = table.contains("chip") ? table.choice("chip") : .auto
        guard let bus, address != nil || !table.contains("address"), let chip else { return nil }
        self.init(bus: bus, address: address, chip: chip)
    }
}

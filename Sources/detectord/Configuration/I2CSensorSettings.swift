/// `[sensor.i2c]`: the bus and chip of a live IMU and how to read it. Required when
/// `sensor.source` is "i2c"; `[sensor.simulated]` takes the same keys for its simulated chip.
struct I2CSensorSettings: Sendable, Equatable {
    /// N of /dev/i2c-N; the Raspberry Pi's header bus is 1.
    var bus: Int
    /// The 7-bit address; nil scans the addresses IMUs answer at.
    var address: Int?
    var chip: I2CChip
    /// Full scales asked of the chip; it picks the nearest it has that is not smaller.
    var accelerometerRange: Double = 16
    var gyroscopeRange: Double = 2000
    /// The chip's low-pass corner; nil lets the driver pick about a quarter of the rate.
    var lowPassHz: Double?
    /// false polls the data registers on data-ready instead of draining the FIFO.
    var fifo = true
    /// FIFO samples per drain; nil: about 20 ms worth.
    var watermark: Int?
    /// SCHED_FIFO priority of the sensor thread (1 to 99); nil: the normal scheduler.
    var realtimePriority: Int?

    static let keys = ["bus", "address", "chip", "accelerometer_range_g", "gyroscope_range_dps", "low_pass_hz", "fifo", "watermark", "realtime_priority"]
    /// 7-bit addresses outside the ranges I2C reserves.
    static let addresses = 0x08...0x77

    init(bus: Int = 1, address: Int? = nil, chip: I2CChip = .auto) {
        self.bus = bus
        self.address = address
        self.chip = chip
    }

    /// Reads the table; `extraKeys` are the caller's own (the simulated source's).
    init?(_ table: ConfigurationTable, extraKeys: [String] = []) {
        table.rejectUnknownKeys(known: Self.keys + extraKeys)
        let bus = table.contains("bus") ? table.integer("bus", in: 0...255) : 1
        let address = table.integer("address", in: Self.addresses, hexadecimal: true)
        let chip: I2CChip? = table.contains("chip") ? table.choice("chip") : .auto
        let accelerometer = table.contains("accelerometer_range_g") ? table.number("accelerometer_range_g", in: 2...200) : 16
        let gyroscope = table.contains("gyroscope_range_dps") ? table.number("gyroscope_range_dps", in: 125...2000) : 2000
        let lowPass = table.number("low_pass_hz", in: 5...1000)
        let fifo = table.contains("fifo") ? table.bool("fifo") : true
        let watermark = table.integer("watermark", in: 1...1000)
        let priority = table.integer("realtime_priority", in: 1...99)
        guard let bus, address != nil || !table.contains("address"), let chip, let accelerometer, let gyroscope,
              lowPass != nil || !table.contains("low_pass_hz"), let fifo, watermark != nil || !table.contains("watermark"),
              priority != nil || !table.contains("realtime_priority")
        else { return nil }
        self.init(bus: bus, address: address, chip: chip)
        accelerometerRange = accelerometer
        gyroscopeRange = gyroscope
        lowPassHz = lowPass
        self.fifo = fifo
        self.watermark = watermark
        realtimePriority = priority
    }
}

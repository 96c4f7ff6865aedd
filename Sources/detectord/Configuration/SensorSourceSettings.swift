/// Where samples come from: the IMU on the I2C bus, or a recording played as if it were live.
enum SensorSourceSettings: Sendable, Equatable {
    case i2c(I2CSensorSettings)
    case replay(ReplaySensorSettings)

    /// The name the file uses: "i2c" or "replay".
    var name: String {
        switch self {
        case .i2c: "i2c"
        case .replay: "replay"
        }
    }

    static let names = ["i2c", "replay"]
}

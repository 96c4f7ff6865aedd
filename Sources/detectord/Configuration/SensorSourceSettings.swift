/// Where samples come from: the IMU on the I2C bus, a simulated chip read by the same driver
/// path, or a recording played as if it were live.
enum SensorSourceSettings: Sendable, Equatable {
    case i2c(I2CSensorSettings)
    case simulated(SimulatedSensorSettings)
    case replay(ReplaySensorSettings)

    /// The name the file uses.
    var name: String {
        switch self {
        case .i2c: "i2c"
        case .simulated: "simulated"
        case .replay: "replay"
        }
    }

    static let names = ["i2c", "simulated", "replay"]
}

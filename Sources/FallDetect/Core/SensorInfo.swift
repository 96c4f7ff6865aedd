/// What a recording's IMU was and how its numbers are to be read: kept with every recording so a
/// replay months later still knows ranges, rate and orientation.
public struct SensorInfo: Sendable, Hashable {
    /// Accelerometer and gyroscope part names, e.g. "ADXL345+ITG3200" or "MPU-6050".
    public var sensor: String
    /// The device that carried the sensor, e.g. "SisFall belt unit" or "raspberrypi-4b".
    public var device: String
    /// Accelerometer full scale, ± g.
    public var accelerometerRange: Float
    /// Gyroscope full scale, ± degrees per second.
    public var gyroscopeRange: Float
    /// Nominal output data rate, Hz.
    public var sampleRate: Double
    /// Applied to the sensor's axes to give the body-frame samples stored alongside.
    public var axisMapping: AxisMapping
    /// Whether the recording carries magnetometer readings.
    public var hasMagnetometer: Bool

    public init(
        sensor: String,
        device: String,
        accelerometerRange: Float,
        gyroscopeRange: Float,
        sampleRate: Double,
        axisMapping: AxisMapping = .identity,
        hasMagnetometer: Bool = false
    ) {
        self.sensor = sensor
        self.device = device
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.sampleRate = sampleRate
        self.axisMapping = axisMapping
        self.hasMagnetometer = hasMagnetometer
    }

    /// The output data rates a body-worn IMU really runs at, Hz. Every rate that reaches the
    /// detectors (configuration, options, recordings) is held to it: filters, rings and sample
    /// periods are sized from the rate.
    public static let plausibleSampleRates: ClosedRange<Double> = 10...10_000

    /// SisFall's belt unit: ADXL345 (±16 g) and ITG3200 (±2000 °/s) at 200 Hz.
    public static let sisFall = SensorInfo(
        sensor: "ADXL345+ITG3200", device: "SisFall belt unit",
        accelerometerRange: 16, gyroscopeRange: 2000, sampleRate: 200, axisMapping: .sisFall)

    /// Nominal time between samples, in nanoseconds.
    public var samplePeriodNanoseconds: Int64 { Int64((1e9 / sampleRate).rounded()) }
}

/// What an IMU was set to: the settings the driver chose for a request, as the chip now runs.
public struct IMUConfiguration: Sendable, Equatable {
    /// The model it was identified as.
    public var model: String
    /// Nominal output data rate, Hz (the real one drifts; `OutputRateEstimator` measures it).
    public var rateHz: Double
    /// ± g; 0 for a chip without an accelerometer.
    public var accelerometerRange: Float
    /// ± °/s; 0 for a chip without a gyroscope.
    public var gyroscopeRange: Float
    /// Counts per g and per °/s at those ranges (the data sheet's sensitivity).
    public var accelerometerLSBPerG: Float
    public var gyroscopeLSBPerDPS: Float
    /// The low-pass corner the chip applies, Hz.
    public var lowPassHz: Double
    /// Samples the FIFO holds; 0 when the chip is read without it (data-ready polling).
    public var fifoCapacity: Int
    /// Samples per drain the streamer waits for; 1 when polled.
    public var watermark: Int

    public init(model: String, rateHz: Double, accelerometerRange: Float, gyroscopeRange: Float, accelerometerLSBPerG: Float,
                gyroscopeLSBPerDPS: Float, lowPassHz: Double, fifoCapacity: Int, watermark: Int) {
        self.model = model
        self.rateHz = rateHz
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.accelerometerLSBPerG = accelerometerLSBPerG
        self.gyroscopeLSBPerDPS = gyroscopeLSBPerDPS
        self.lowPassHz = lowPassHz
        self.fifoCapacity = fifoCapacity
        self.watermark = watermark
    }

    public var usesFIFO: Bool { fifoCapacity > 0 }
    public var hasGyroscope: Bool { gyroscopeRange > 0 }
}

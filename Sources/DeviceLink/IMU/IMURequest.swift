/// What the daemon asks of an IMU. Drivers pick the nearest setting the chip has (never a smaller
/// range than asked) and report what they chose in `IMUConfiguration`.
public struct IMURequest: Sendable, Equatable {
    /// Output data rate, Hz.
    public var rateHz: Double
    /// Accelerometer full scale, ± g.
    public var accelerometerRange: Float
    /// Gyroscope full scale, ± °/s.
    public var gyroscopeRange: Float
    /// Low-pass corner, Hz; nil lets the driver choose about rate / 4 (below Nyquist, above the
    /// 20 Hz a fall's impact needs at 100 Hz and up).
    public var lowPassHz: Double?
    /// false reads the data registers on data-ready instead of the FIFO.
    public var useFIFO: Bool
    /// FIFO samples per drain; nil: about 20 ms worth, so a decision waits little for the batch.
    public var watermark: Int?

    public init(rateHz: Double = 200, accelerometerRange: Float = 16, gyroscopeRange: Float = 2000, lowPassHz: Double? = nil,
                useFIFO: Bool = true, watermark: Int? = nil) {
        self.rateHz = rateHz
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.lowPassHz = lowPassHz
        self.useFIFO = useFIFO
        self.watermark = watermark
    }

    /// The watermark to use for a FIFO of `capacity` samples at `rate`: the request's, or about
    /// 20 ms of samples, never more than half the FIFO (a late drain must not overflow it).
    public func watermark(capacity: Int, rate: Double) -> Int {
        let wanted = watermark ?? Int((rate * 0.02).rounded())
        return max(1, min(wanted, capacity / 2))
    }
}

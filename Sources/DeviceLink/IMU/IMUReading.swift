/// One sample as a chip delivers it, scaled to g and °/s in the chip's own axes, before it has a
/// time (`SampleTimestamper` gives it one) or a body frame.
public struct IMUReading: Sendable, Equatable {
    public var acceleration: SIMD3<Float>
    public var angularRate: SIMD3<Float>

    public init(acceleration: SIMD3<Float>, angularRate: SIMD3<Float> = .zero) {
        self.acceleration = acceleration
        self.angularRate = angularRate
    }
}

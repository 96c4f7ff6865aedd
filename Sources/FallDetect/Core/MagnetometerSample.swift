/// A magnetometer reading, kept out of `IMUSample` so the hot record stays at 32 bytes; most
/// body-worn set-ups have none, and those that do sample it more slowly than the IMU.
public struct MagnetometerSample: Sendable, Equatable {
    public var timestampNanoseconds: Int64
    /// Magnetic field in microtesla, body frame.
    public var field: SIMD3<Float>

    public init(timestampNanoseconds: Int64, field: SIMD3<Float>) {
        self.timestampNanoseconds = timestampNanoseconds
        self.field = field
    }
}

/// What the earth-frame vertical acceleration reads while the body is still, learned in each
/// posture, so that the vertical velocity integrates motion and not sensor error.
///
/// A still body should read 0 g on the vertical axis once gravity is removed, but a trunk
/// accelerometer's offset and gain errors depend on which axis points down: SisFall's belt units
/// read |a| between 0.83 and 1.16 g at rest depending on posture and unit. Through the leaky
/// integrator (τ = 1 s) a −0.17 g error settles at −1.7 m/s, as fast as a fall, and a wearer turning
/// over in bed then looks like one falling. Learning the reading only while still (slow rotation,
/// |a| steady) leaves a fall's own acceleration alone: the body is not still while it falls, so the
/// bias stays frozen at what it was just before.
public struct StationaryBiasEstimator: Sendable {
    /// Above this |ω|, °/s, the body is turning, not still.
    public let maximumAngularRate: Float
    /// Largest departure of |a| from its recent mean, g, that still counts as still.
    public let maximumDeviation: Float
    /// Seconds the body must have been still before the bias learns.
    public let holdSeconds: Float
    /// Seconds for the bias to follow a new still reading (first-order).
    public let timeConstant: Float

    /// The still reading, g; subtract it from the vertical acceleration.
    public private(set) var bias: Float = 0
    /// True while the stillness conditions have held for `holdSeconds`.
    public private(set) var isStationary = false
    var meanMagnitude: Float?
    var stillSeconds: Float = 0

    /// Time constant of the |a| mean that deviations are measured from, seconds.
    static let magnitudeTimeConstant: Float = 0.2

    public init(maximumAngularRate: Float = 20, maximumDeviation: Float = 0.05, holdSeconds: Float = 0.25, timeConstant: Float = 0.5) {
        self.maximumAngularRate = maximumAngularRate
        self.maximumDeviation = maximumDeviation
        self.holdSeconds = holdSeconds
        self.timeConstant = timeConstant
    }

    /// Adds one sample; returns the bias to subtract from `verticalAcceleration`, g.
    public mutating func push(verticalAcceleration: Float, accelerationMagnitude: Float, angularRate: Float, samplePeriod: Float) -> Float {
        let mean = meanMagnitude ?? accelerationMagnitude
        let still = angularRate <= maximumAngularRate && abs(accelerationMagnitude - mean) <= maximumDeviation
        meanMagnitude = mean + (accelerationMagnitude - mean) * samplePeriod / (Self.magnitudeTimeConstant + samplePeriod)
        stillSeconds = still ? stillSeconds + samplePeriod : 0
        isStationary = stillSeconds >= holdSeconds
        if isStationary {
            bias += (verticalAcceleration - bias) * samplePeriod / (timeConstant + samplePeriod)
        }
        return bias
    }
}

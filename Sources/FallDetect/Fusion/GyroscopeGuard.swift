#if canImport(Glibc)
import Glibc
#endif

/// Decides when a gyroscope reports turns no body makes, so that the attitude leans on the
/// accelerometer instead.
///
/// The AHRS trusts its gyroscope between gentle corrections (gain 0.5), which is right for a
/// healthy sensor: the tilt stays steady through the accelerations of walking and of an impact.
/// A gyroscope that reports turns that never happen (a faulty part, a loose mount) walks the
/// attitude away faster than those corrections bring it back. In SisFall, two older subjects'
/// belt units read 300–1200 °/s for seconds on end (630–780 °/s averaged over a second) on stairs
/// and getting out of a car, while the accelerometer's direction stayed within about 20° of the
/// posture; the AHRS swung between upright and upside down (tilt 170°), and tilt feeds every
/// fall feature and the recovery check.
///
/// A trunk does not keep turning faster than `implausibleRate` averaged over a second: the
/// fastest healthy second in SisFall, a fall while jogging, averages 370 °/s, and a fall's
/// fastest second 115 °/s (median). Once the mean |ω| (exponential, `timeConstant`) passes it,
/// the gyroscope stays suspect until the mean has kept under `plausibleRate` for `holdSeconds`.
/// O(1) per sample, no allocation.
public struct GyroscopeGuard: Sendable {
    /// Mean |ω| beyond which the gyroscope is not believed, °/s.
    public let implausibleRate: Float
    /// Mean |ω| under which a suspect gyroscope starts to be believed again, °/s. Lower than
    /// `implausibleRate`: a faulty part's mean swings around that limit, and every swing under it
    /// would let the gyroscope tip the attitude over again.
    public let plausibleRate: Float
    /// Time constant of the mean, seconds.
    public let timeConstant: Float
    /// Seconds under `plausibleRate` before a suspect gyroscope is believed again.
    public let holdSeconds: Float
    /// Times the gyroscope became suspect: a sensor health figure.
    public private(set) var episodes = 0
    /// Mean |ω| so far, °/s.
    public private(set) var meanRate: Float = 0
    var plausibleFor: Float = .infinity
    /// The mean's weight for `period`, kept so a steady sample rate costs no exponential per sample.
    var weight: (period: Float, alpha: Float) = (0, 0)

    public init(implausibleRate: Float = 500, plausibleRate: Float = 250, timeConstant: Float = 1, holdSeconds: Float = 2) {
        self.implausibleRate = implausibleRate
        self.plausibleRate = plausibleRate
        self.timeConstant = timeConstant
        self.holdSeconds = holdSeconds
    }

    /// True while the gyroscope is suspect.
    public var isSuspect: Bool { plausibleFor < holdSeconds }

    /// Adds one sample's |ω| (°/s) over `samplePeriod` seconds; returns `isSuspect`.
    public mutating func push(angularRate: Float, samplePeriod: Float) -> Bool {
        if samplePeriod != weight.period { weight = (samplePeriod, 1 - exp(-samplePeriod / timeConstant)) }
        meanRate += weight.alpha * (angularRate - meanRate)
        if meanRate > implausibleRate || (isSuspect && meanRate > plausibleRate) {
            if !isSuspect { episodes += 1 }
            plausibleFor = 0
        } else {
            plausibleFor += samplePeriod
        }
        return isSuspect
    }
}

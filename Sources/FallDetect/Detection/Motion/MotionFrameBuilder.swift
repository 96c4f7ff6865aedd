/// Turns IMU samples into `MotionFrame`s: AHRS attitude (tilt), earth-frame vertical acceleration
/// less what the still body reads in its posture, a drift-controlled vertical velocity, and a
/// saturation flag. While `GyroscopeGuard` finds the gyroscope implausible, the attitude follows
/// the accelerometer alone. O(1) per sample, no allocation.
public struct MotionFrameBuilder: Sendable {
    public let sampleRate: Float
    /// Accelerometer full scale, g; readings at 98 % of it or beyond are flagged as saturated.
    public let accelerometerRange: Float
    var ahrs: AHRS
    var gyroscopeGuard = GyroscopeGuard()
    /// The AHRS's gain while the gyroscope is believed (x-io Fusion's recommendation for a
    /// body-worn IMU).
    let gain: Float
    var stationaryBias = StationaryBiasEstimator()
    var velocity: VerticalVelocityEstimator
    var previousTimestamp: Int64?

    /// - Parameters:
    ///   - sampleRate: nominal rate, Hz (SisFall 200; the daemon 100–1000).
    ///   - accelerometerRange: full scale in g (SisFall's ADXL345: 16).
    ///   - velocityTimeConstant: seconds; see `VerticalVelocityEstimator`.
    ///   - accelerationRejection: the AHRS's, degrees. 0 (off) by default: a trunk sensor is
    ///     accelerated most of the time while walking, and with rejection on the filter leans on an
    ///     uncalibrated gyroscope for seconds and its tilt drifts by 30° and more (measured on
    ///     SisFall walking trials); an impact's fraction of a second moves it little at gain 0.5.
    ///   - gyroscopeRange: full scale in °/s: a rate clipped at it restarts the attitude from the
    ///     accelerometer instead of integrating a turn that was faster than the reading.
    public init(
        sampleRate: Float, accelerometerRange: Float = 16, gyroscopeRange: Float = 2000, velocityTimeConstant: Float = 1,
        accelerationRejection: Float = 0
    ) {
        self.sampleRate = sampleRate
        self.accelerometerRange = accelerometerRange
        ahrs = AHRS(settings: AHRSSettings(sampleRate: sampleRate, gyroscopeRange: gyroscopeRange, accelerationRejection: accelerationRejection))
        gain = ahrs.settings.gain
        velocity = VerticalVelocityEstimator(timeConstant: velocityTimeConstant)
    }

    /// The AHRS's gain while the gyroscope is suspect, with the gyroscope left out: the attitude
    /// then follows the accelerometer's gravity with a lag of about half a second.
    static let suspectGain: Float = 2

    /// Times the gyroscope reported turns no body makes and was left out (`GyroscopeGuard`).
    public var suspectGyroscopeEpisodes: Int { gyroscopeGuard.episodes }

    public mutating func push(_ sample: IMUSample) -> MotionFrame { push(sample, sensor: nil) }

    /// More than this many nominal periods between two samples, and more than `gapSeconds` (or
    /// time going back), is a break in the samples, not jitter: the frame after it is marked
    /// `afterGap`. A FIFO overflow loses 0.4 s and more; a few ms missing at 1 kHz is no break.
    static let gapPeriods: Float = 4
    static let gapSeconds: Float = 0.1

    /// `sensor` is the reading as the sensor gave it when `sample` is it turned into the body
    /// frame: full scale is per sensor axis, and a turned axis would hide or invent clipping.
    mutating func push(_ sample: IMUSample, sensor: IMUSample?) -> MotionFrame {
        let nominal = 1 / sampleRate
        var period = nominal
        var afterGap = false
        if let previous = previousTimestamp {
            let gap = Float(sample.timestampNanoseconds - previous) * 1e-9
            // A gap outside (0, 1 s) is a clock step or a pause, not a sample period.
            if gap > 0, gap < 1 { period = gap }
            afterGap = !(gap > 0 && gap <= max(Self.gapPeriods * nominal, Self.gapSeconds))
        }
        previousTimestamp = sample.timestampNanoseconds
        let g = sample.angularRate
        let rate = (g * g).sum().squareRoot()
        let suspect = gyroscopeGuard.push(angularRate: rate, samplePeriod: period)
        let gain = suspect ? Self.suspectGain : gain
        if gain != ahrs.settings.gain { ahrs.settings.gain = gain }
        if let sensor { restartOnGyroscopeOverrange(sensorAngularRate: sensor.angularRate) }
        ahrs.samplePeriod = period
        if suspect {
            ahrs.update(angularRate: .zero, acceleration: sample.acceleration)
        } else {
            ahrs.update(sample)
        }
        let output = ahrs.output
        let a = sample.acceleration
        let s = sensor?.acceleration ?? a
        let limit = accelerometerRange * 0.98
        let saturated = abs(s.x) >= limit || abs(s.y) >= limit || abs(s.z) >= limit
        var frame = MotionFrame(
            timestampNanoseconds: sample.timestampNanoseconds, samplePeriod: period, acceleration: a,
            angularRateMagnitude: rate, tiltDegrees: output.tiltDegrees,
            verticalAcceleration: 0, verticalVelocity: 0, saturated: saturated, gravity: output.gravity, afterGap: afterGap)
        // The still reading needs the frame's |a| and |ω|; the vertical fields follow from it.
        let bias = stationaryBias.push(
            verticalAcceleration: output.earthAcceleration.z, accelerationMagnitude: frame.accelerationMagnitude,
            angularRate: frame.angularRateMagnitude, samplePeriod: period)
        frame.verticalAcceleration = output.earthAcceleration.z - bias
        frame.verticalVelocity = velocity.push(earthAccelerationZ: frame.verticalAcceleration, samplePeriod: period)
        return frame
    }
}

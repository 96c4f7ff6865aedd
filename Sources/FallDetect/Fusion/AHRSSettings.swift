import CFusion

/// Settings of ``AHRS`` and ``MultiStreamAHRS`` (x-io Fusion's, same meaning and units).
///
/// The defaults are Fusion's recommendations for a body-worn IMU, at 100 Hz: gain 0.5,
/// gyroscope range 2000 °/s, acceleration rejection 10°, rejection timeout 5 s.
public struct AHRSSettings: Sendable, Hashable {
    /// Nominal sample rate, Hz. Sets the default sample period, the start-up ramp per update and
    /// the rejection timeout in updates.
    public var sampleRate: Float
    /// Accelerometer weight against the gyroscope; 0 turns the filter into gyroscope integration.
    public var gain: Float
    /// Gyroscope full scale, °/s; beyond 98 % of it the filter soft-restarts. 0 disables.
    public var gyroscopeRange: Float
    /// Degrees of disagreement between accelerometer and predicted gravity beyond which the
    /// accelerometer is ignored. 0 disables.
    public var accelerationRejection: Float
    /// Seconds of mostly-rejected accelerometer after which it is trusted again (acceleration
    /// recovery). 0 disables rejection.
    public var rejectionTimeout: Float

    public init(
        sampleRate: Float = 100, gain: Float = 0.5, gyroscopeRange: Float = 2000,
        accelerationRejection: Float = 10, rejectionTimeout: Float = 5
    ) {
        self.sampleRate = sampleRate
        self.gain = gain
        self.gyroscopeRange = gyroscopeRange
        self.accelerationRejection = accelerationRejection
        self.rejectionTimeout = rejectionTimeout
    }

    var raw: cfusion_ahrs_settings {
        cfusion_ahrs_settings(
            sample_rate_hz: sampleRate, gain: gain, gyroscope_range_dps: gyroscopeRange,
            acceleration_rejection_deg: accelerationRejection, rejection_timeout_s: rejectionTimeout)
    }
}

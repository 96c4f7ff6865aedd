import CFusion

/// Run-time gyroscope offset estimation while still (x-io Fusion's Bias): when every corrected
/// axis stays within `stationaryThreshold` for `stationaryPeriod`, the offset follows the reading
/// through a 0.02 Hz first-order high-pass. Feed every sample at the configured rate and give the
/// corrected rate to the ``AHRS``.
public struct GyroscopeBias: Sendable {
    public struct Settings: Sendable, Hashable {
        public var sampleRate: Float
        /// °/s.
        public var stationaryThreshold: Float
        /// Seconds.
        public var stationaryPeriod: Float

        public init(sampleRate: Float = 100, stationaryThreshold: Float = 3, stationaryPeriod: Float = 3) {
            self.sampleRate = sampleRate
            self.stationaryThreshold = stationaryThreshold
            self.stationaryPeriod = stationaryPeriod
        }
    }

    var state: cfusion_gyro_bias
    public let settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = cfusion_gyro_bias()
        var s = cfusion_gyro_bias_settings(
            sample_rate_hz: settings.sampleRate, stationary_threshold_dps: settings.stationaryThreshold,
            stationary_period_s: settings.stationaryPeriod)
        cfusion_gyro_bias_init(&state, &s)
    }

    /// Returns `angularRate − offset` and updates the offset estimate.
    public mutating func update(_ angularRate: SIMD3<Float>) -> SIMD3<Float> {
        let r = cfusion_gyro_bias_update(&state, cfusion_vec3(x: angularRate.x, y: angularRate.y, z: angularRate.z))
        return SIMD3(r.x, r.y, r.z)
    }

    /// The current offset, °/s; set it to restore one saved earlier.
    public var offset: SIMD3<Float> {
        get { SIMD3(state.offset.x, state.offset.y, state.offset.z) }
        set { state.offset = cfusion_vec3(x: newValue.x, y: newValue.y, z: newValue.z) }
    }
}

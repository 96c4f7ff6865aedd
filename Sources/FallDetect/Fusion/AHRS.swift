import CFusion

/// Attitude of one IMU stream: x-io Fusion's revised AHRS (a complementary filter, gyroscope
/// corrected towards the accelerometer's gravity), six-axis, ported to C in CFusion.
///
/// Frames: body +x forward, +y left, +z up; earth NWU-style with z up and the heading pinned to 0
/// during start-up (no magnetometer, so heading is relative to the start). Units: °/s and g.
/// A value type holding the whole state inline: copying it forks the filter. Updates never
/// allocate or log.
public struct AHRS: Sendable {
    var state: cfusion_ahrs

    public init(settings: AHRSSettings = AHRSSettings()) {
        state = cfusion_ahrs()
        var s = settings.raw
        cfusion_ahrs_init(&state, &s)
        self.settings = settings
    }

    /// Changing the settings keeps the attitude and resets the sample period to 1/sampleRate.
    public var settings: AHRSSettings {
        didSet {
            var s = settings.raw
            cfusion_ahrs_set_settings(&state, &s)
        }
    }

    /// Integration step of the following updates, seconds (default 1/sampleRate). Set it before an
    /// update whose sample came early or late; the start-up ramp and rejection counters stay
    /// per update.
    public var samplePeriod: Float {
        get { state.sample_period }
        set { cfusion_ahrs_set_sample_period(&state, newValue) }
    }

    /// One update: angular rate in °/s, acceleration in g. A zero acceleration means "no reading".
    public mutating func update(angularRate g: SIMD3<Float>, acceleration a: SIMD3<Float>) {
        cfusion_ahrs_update(&state, cfusion_vec3(x: g.x, y: g.y, z: g.z), cfusion_vec3(x: a.x, y: a.y, z: a.z))
    }

    /// One update from a body-frame sample.
    public mutating func update(_ sample: IMUSample) {
        let r = sample.raw
        cfusion_ahrs_update(&state, cfusion_vec3(x: r.gx, y: r.gy, z: r.gz), cfusion_vec3(x: r.ax, y: r.ay, z: r.az))
    }

    /// Updates with every sample in order. With `useTimestamps` each sample's period is the gap to
    /// the previous timestamp (when in (0, 1 s)), else the nominal period.
    public mutating func update(_ samples: UnsafeBufferPointer<IMUSample>, useTimestamps: Bool = false) {
        guard let base = samples.baseAddress else { return }
        base.withMemoryRebound(to: cfusion_sample.self, capacity: samples.count) { raw in
            cfusion_ahrs_update_samples(&state, raw, samples.count, useTimestamps ? 1 : 0, nil)
        }
    }

    public var quaternion: Quaternion {
        get { Quaternion(state.q) }
        set { cfusion_ahrs_set_quaternion(&state, newValue.raw) }
    }

    public var flags: AHRSFlags { withUnsafePointer(to: state) { AHRSFlags(cfusion_ahrs_get_flags($0)) } }

    /// Quaternion, gravity, linear accelerations, tilt and flags after the last update.
    public var output: AHRSOutput { withUnsafePointer(to: state) { AHRSOutput(cfusion_ahrs_get_output($0)) } }

    /// Identity attitude and a new start-up ramp; settings kept.
    public mutating func restart() { cfusion_ahrs_restart(&state) }

    /// Ends start-up now, for when the attitude is already known (set ``quaternion`` first).
    public mutating func skipStartup() { cfusion_ahrs_skip_startup(&state) }
}

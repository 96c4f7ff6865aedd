// Attitude estimation for one IMU stream: a complementary filter in the manner of x-io Fusion's
// "revised AHRS algorithm" (Madgwick's PhD thesis, ch. 7), six-axis (gyroscope + accelerometer).
// Our own port: same equations, settings and flags as PyPI imufusion 1.3.3 (the test oracle), so
// outputs agree to float rounding; names and structure are ours.
//
// Frames. The body frame is detectord's: +x forward, +y left, +z up. The earth frame is NWU-style,
// z up: with no magnetometer the heading is unobservable, so it is pinned to 0 during start-up and
// earth +x is "where body +x pointed then" (north in the NWU sense only by name), +y is 90° to its
// left, +z is up. The quaternion rotates body vectors into the earth frame.
//
// Units: angular rate in degrees per second, acceleration in g, times in seconds, angles in degrees.
// Nothing here allocates, locks or logs.
#ifndef CFUSION_AHRS_H
#define CFUSION_AHRS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cfusion_sample;

typedef struct cfusion_vec3 {
    float x, y, z;
} cfusion_vec3;

/// Unit quaternion w + xi + yj + zk.
typedef struct cfusion_quat {
    float w, x, y, z;
} cfusion_quat;

typedef struct cfusion_ahrs_settings {
    /// Nominal sample rate in Hz: sets the default sample period, the start-up ramp per update and
    /// the rejection timeout in updates.
    float sample_rate_hz;
    /// Weight of the accelerometer against the gyroscope; 0.5 is Fusion's recommendation.
    /// 0 disables start-up ramp and rejection (pure gyroscope integration).
    float gain;
    /// The gyroscope's full scale in °/s. Any axis beyond 98 % of it triggers a soft restart
    /// (attitude kept, start-up gain ramp re-entered). 0 disables.
    float gyroscope_range_dps;
    /// The accelerometer is ignored while its direction differs from the predicted gravity by more
    /// than this many degrees (an impact, a swing). 0 disables.
    float acceleration_rejection_deg;
    /// If the accelerometer was rejected for most of this many seconds, it is trusted again until
    /// the error settles (acceleration recovery). 0 disables rejection altogether.
    float rejection_timeout_s;
} cfusion_ahrs_settings;

/// 100 Hz, gain 0.5, gyroscope range 2000 °/s, rejection 10°, timeout 5 s: Fusion's README
/// recommendations (Fusion's compiled-in defaults leave range and rejection disabled).
cfusion_ahrs_settings cfusion_ahrs_settings_default(void);

typedef struct cfusion_ahrs_flags {
    /// The gain is still ramping from 10 down to `gain` (first 3 s, or after an overrange restart).
    uint8_t startup;
    /// A gyroscope axis exceeded the range; cleared when the restarted start-up ends.
    uint8_t overrange_recovery;
    /// The accelerometer was rejected for too long and is being trusted on every update again.
    uint8_t acceleration_recovery;
    /// This update did not use the accelerometer (error over the threshold, or a zero reading).
    uint8_t accelerometer_ignored;
} cfusion_ahrs_flags;

/// What one update leaves behind, computed on request from the state.
typedef struct cfusion_ahrs_output {
    cfusion_quat quaternion;
    /// Unit vector of "up" in the body frame (what a still accelerometer reads, in g).
    cfusion_vec3 gravity;
    /// Accelerometer minus gravity, body frame, g.
    cfusion_vec3 linear_body;
    /// Accelerometer rotated into the earth frame minus (0, 0, 1), g; z is vertical.
    cfusion_vec3 linear_earth;
    /// Angle between body +z and earth up, 0...180°.
    float tilt_deg;
    /// Angle between the normalised accelerometer and the predicted gravity, degrees (0...90;
    /// errors above 90° read 90).
    float acceleration_error_deg;
    cfusion_ahrs_flags flags;
} cfusion_ahrs_output;

/// The filter's whole state; copyable, no pointers inside.
typedef struct cfusion_ahrs {
    cfusion_quat q;
    cfusion_vec3 accelerometer;
    /// Half of the last accelerometer residual (cross product of measured and predicted gravity).
    cfusion_vec3 half_residual;
    float sample_period;
    float gain;
    float startup_gain;
    float startup_gain_step;
    float overrange_threshold;
    /// (½ sin θ)² of the rejection angle, or FLT_MAX when disabled.
    float rejection;
    int32_t rejection_timeout;
    int32_t recovery_trigger;
    int32_t recovery_threshold;
    uint8_t overrange_enabled;
    uint8_t startup;
    uint8_t overrange_recovery;
    uint8_t accelerometer_ignored;
} cfusion_ahrs;

/// Applies `settings` and restarts (identity attitude, start-up ramp).
void cfusion_ahrs_init(cfusion_ahrs *ahrs, const cfusion_ahrs_settings *settings);

/// Changes settings and resets the sample period to 1/sample_rate; keeps attitude and start-up state.
void cfusion_ahrs_set_settings(cfusion_ahrs *ahrs, const cfusion_ahrs_settings *settings);

/// Identity attitude, start-up ramp from gain 10, counters cleared; settings kept.
void cfusion_ahrs_restart(cfusion_ahrs *ahrs);

/// Ends start-up now (when the attitude is known, e.g. set with `cfusion_ahrs_set_quaternion`).
void cfusion_ahrs_skip_startup(cfusion_ahrs *ahrs);

/// The integration step of the following updates, in seconds; call before an update whose sample
/// came late or early (timestamps). The start-up ramp and rejection counters stay per update.
void cfusion_ahrs_set_sample_period(cfusion_ahrs *ahrs, float sample_period_s);

void cfusion_ahrs_set_quaternion(cfusion_ahrs *ahrs, cfusion_quat q);

/// One update with a gyroscope reading (°/s) and an accelerometer reading (g). An all-zero
/// accelerometer means "no reading": the update integrates the gyroscope only. While in start-up
/// the heading is held at 0 (no magnetometer), as Fusion's UpdateNoMagnetometer does.
void cfusion_ahrs_update(cfusion_ahrs *ahrs, cfusion_vec3 gyroscope_dps, cfusion_vec3 accelerometer_g);

/// Runs `count` samples (body frame). With `use_timestamps` the period of sample i > 0 is its
/// timestamp minus the previous one's when that lies in (0, 1 s), else the nominal period.
/// When `quaternions` is not NULL it receives the attitude after each update.
void cfusion_ahrs_update_samples(
    cfusion_ahrs *ahrs, const struct cfusion_sample *samples, size_t count, int use_timestamps,
    cfusion_quat *quaternions);

cfusion_quat cfusion_ahrs_quaternion(const cfusion_ahrs *ahrs);
cfusion_ahrs_flags cfusion_ahrs_get_flags(const cfusion_ahrs *ahrs);
cfusion_ahrs_output cfusion_ahrs_get_output(const cfusion_ahrs *ahrs);

/// Body-frame unit "up" from a unit quaternion (third row of its rotation matrix).
cfusion_vec3 cfusion_quat_gravity(cfusion_quat q);
/// Rotates a body vector into the earth frame.
cfusion_vec3 cfusion_quat_rotate(cfusion_quat q, cfusion_vec3 v);
/// Angle of the rotation that takes a to b, in degrees (0...180): the attitude difference.
float cfusion_quat_angle_deg(cfusion_quat a, cfusion_quat b);

// ---------------------------------------------------------------------------------------------
// Gyroscope bias while still (Fusion's "Bias"): when every corrected axis has stayed within the
// stationary threshold for the stationary period, the offset follows the reading through a
// first-order high-pass of cutoff 0.02 Hz (offset += corrected · 2π·0.02/sample_rate).

typedef struct cfusion_gyro_bias_settings {
    float sample_rate_hz;         // 100
    float stationary_threshold_dps; // 3
    float stationary_period_s;    // 3
} cfusion_gyro_bias_settings;

cfusion_gyro_bias_settings cfusion_gyro_bias_settings_default(void);

typedef struct cfusion_gyro_bias {
    cfusion_vec3 offset;
    float threshold;
    float coefficient;
    uint32_t timer;
    uint32_t timeout;
} cfusion_gyro_bias;

/// Applies settings, zero offset, timer cleared.
void cfusion_gyro_bias_init(cfusion_gyro_bias *bias, const cfusion_gyro_bias_settings *settings);

/// Returns the corrected reading (gyroscope − offset) and updates the estimate; call every sample.
cfusion_vec3 cfusion_gyro_bias_update(cfusion_gyro_bias *bias, cfusion_vec3 gyroscope_dps);

#ifdef __cplusplus
}
#endif

#endif

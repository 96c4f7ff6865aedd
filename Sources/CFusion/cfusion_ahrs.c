// One-stream AHRS and gyroscope bias. The equations follow x-io Fusion 1.3 (FusionAhrs.c,
// FusionBias.c, MIT) operation for operation where that matters for agreement with imufusion
// (which is built with FUSION_USE_NORMAL_SQRT: true square roots, no fast inverse square root).
#include "CFusion.h"

#include <float.h>
#include <math.h>

// Fusion's start-up ramp: gain falls from 10 to the set gain over 3 s of nominal updates.
#define STARTUP_GAIN 10.0f
#define STARTUP_PERIOD_S 3.0f
// 0.5 · π/180, folded the way Fusion folds it, so the half-angle step rounds identically.
#define HALF_DEG_TO_RAD (0.5f * ((float) M_PI / 180.0f))
#define RAD_TO_DEG (180.0f / (float) M_PI)

// sqrtf without errno bookkeeping (the argument is a sum of squares, never negative): one sqrtss
// instead of sqrtss plus a compare and a never-taken call.
static inline float root(float x) {
    return __builtin_elementwise_sqrt(x);
}

static inline cfusion_vec3 vec_scale(cfusion_vec3 v, float s) {
    return (cfusion_vec3){v.x * s, v.y * s, v.z * s};
}

static inline float vec_norm_sq(cfusion_vec3 v) {
    return v.x * v.x + v.y * v.y + v.z * v.z;
}

static inline cfusion_vec3 vec_cross(cfusion_vec3 a, cfusion_vec3 b) {
    return (cfusion_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline int vec_is_zero(cfusion_vec3 v) {
    return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

static inline cfusion_vec3 vec_normalise(cfusion_vec3 v) {
    return vec_scale(v, 1.0f / root(vec_norm_sq(v)));
}

// Gravity ("up") in the body frame scaled by ½: the third row of the rotation matrix, halved.
static inline cfusion_vec3 half_gravity(cfusion_quat q) {
    return (cfusion_vec3){
        q.x * q.z - q.w * q.y,
        q.y * q.z + q.w * q.x,
        q.w * q.w - 0.5f + q.z * q.z,
    };
}

cfusion_vec3 cfusion_quat_gravity(cfusion_quat q) {
    return vec_scale(half_gravity(q), 2.0f);
}

cfusion_vec3 cfusion_quat_rotate(cfusion_quat q, cfusion_vec3 a) {
    return (cfusion_vec3){
        2.0f * ((q.w * q.w - 0.5f + q.x * q.x) * a.x + (q.x * q.y - q.w * q.z) * a.y + (q.x * q.z + q.w * q.y) * a.z),
        2.0f * ((q.x * q.y + q.w * q.z) * a.x + (q.w * q.w - 0.5f + q.y * q.y) * a.y + (q.y * q.z - q.w * q.x) * a.z),
        2.0f * ((q.x * q.z - q.w * q.y) * a.x + (q.y * q.z + q.w * q.x) * a.y + (q.w * q.w - 0.5f + q.z * q.z) * a.z),
    };
}

float cfusion_quat_angle_deg(cfusion_quat a, cfusion_quat b) {
    // |<a, b>| = cos(θ/2) for unit quaternions; q and −q are the same attitude. atan2 of the
    // vector part keeps precision for tiny angles where acos would not.
    double dw = (double) a.w * b.w + (double) a.x * b.x + (double) a.y * b.y + (double) a.z * b.z;
    // Vector part of conj(a) ⊗ b.
    double vx = (double) a.w * b.x - (double) a.x * b.w - (double) a.y * b.z + (double) a.z * b.y;
    double vy = (double) a.w * b.y + (double) a.x * b.z - (double) a.y * b.w - (double) a.z * b.x;
    double vz = (double) a.w * b.z - (double) a.x * b.y + (double) a.y * b.x - (double) a.z * b.w;
    double s = sqrt(vx * vx + vy * vy + vz * vz);
    return (float) (2.0 * atan2(s, fabs(dw)) * (180.0 / M_PI));
}

cfusion_ahrs_settings cfusion_ahrs_settings_default(void) {
    return (cfusion_ahrs_settings){
        .sample_rate_hz = 100.0f,
        .gain = 0.5f,
        .gyroscope_range_dps = 2000.0f,
        .acceleration_rejection_deg = 10.0f,
        .rejection_timeout_s = 5.0f,
    };
}

void cfusion_ahrs_set_settings(cfusion_ahrs *ahrs, const cfusion_ahrs_settings *s) {
    ahrs->sample_period = 1.0f / s->sample_rate_hz;
    ahrs->gain = s->gain;
    ahrs->startup_gain_step = ((STARTUP_GAIN - s->gain) / STARTUP_PERIOD_S) * ahrs->sample_period;
    ahrs->overrange_enabled = s->gyroscope_range_dps > 0.0f;
    ahrs->overrange_threshold = 0.98f * s->gyroscope_range_dps;
    float half_sin = 0.5f * sinf(s->acceleration_rejection_deg * ((float) M_PI / 180.0f));
    ahrs->rejection = s->acceleration_rejection_deg == 0.0f ? FLT_MAX : half_sin * half_sin;
    ahrs->rejection_timeout = (int32_t) (s->sample_rate_hz * s->rejection_timeout_s);
    ahrs->recovery_threshold = ahrs->rejection_timeout;
    if (s->gain == 0.0f || s->rejection_timeout_s == 0.0f) {
        ahrs->rejection = FLT_MAX;
    }
}

void cfusion_ahrs_restart(cfusion_ahrs *ahrs) {
    ahrs->q = (cfusion_quat){1.0f, 0.0f, 0.0f, 0.0f};
    ahrs->accelerometer = (cfusion_vec3){0.0f, 0.0f, 0.0f};
    ahrs->half_residual = (cfusion_vec3){0.0f, 0.0f, 0.0f};
    ahrs->startup = 1;
    ahrs->startup_gain = STARTUP_GAIN;
    ahrs->overrange_recovery = 0;
    ahrs->recovery_trigger = 0;
    ahrs->recovery_threshold = ahrs->rejection_timeout;
    ahrs->accelerometer_ignored = 0;
}

void cfusion_ahrs_init(cfusion_ahrs *ahrs, const cfusion_ahrs_settings *settings) {
    *ahrs = (cfusion_ahrs){0};
    cfusion_ahrs_set_settings(ahrs, settings);
    cfusion_ahrs_restart(ahrs);
}

void cfusion_ahrs_skip_startup(cfusion_ahrs *ahrs) {
    ahrs->startup = 0;
    ahrs->overrange_recovery = 0;
}

void cfusion_ahrs_set_sample_period(cfusion_ahrs *ahrs, float sample_period_s) {
    ahrs->sample_period = sample_period_s;
}

void cfusion_ahrs_set_quaternion(cfusion_ahrs *ahrs, cfusion_quat q) {
    ahrs->q = q;
}

// Rotates q about earth z so that its heading (yaw) becomes 0. Fusion computes yaw with atan2f
// and the half-angle with cosf/sinf; the half-angle identity below needs only a square root, stays
// exact near 0° and 180°, and is what the SIMD lanes can afford. Results agree to ~1 ulp.
static inline cfusion_quat zero_heading(cfusion_quat q) {
    float a = q.w * q.z + q.x * q.y;       // ∝ sin(yaw)
    float b = 0.5f - q.y * q.y - q.z * q.z; // ∝ cos(yaw)
    float r = root(a * a + b * b);
    if (r == 0.0f) {
        return q; // yaw undefined (body z horizontal and x vertical): atan2(0, 0) = 0, nothing to do
    }
    // (cos, sin) of yaw/2 ∝ (r + b, a) = (|a|, ±(r − b)) up to a positive factor; pick the form
    // without cancellation.
    float c, s;
    if (b >= 0.0f) {
        c = r + b;
        s = a;
    } else {
        c = fabsf(a);
        s = copysignf(r - b, a);
    }
    float inv = 1.0f / root(c * c + s * s);
    c *= inv;
    s *= inv;
    // (c, 0, 0, −s) ⊗ q
    return (cfusion_quat){
        c * q.w + s * q.z,
        c * q.x + s * q.y,
        c * q.y - s * q.x,
        c * q.z - s * q.w,
    };
}

// The update, inlined into both entry points so the batch loop keeps the state in registers.
static inline __attribute__((always_inline)) void step(cfusion_ahrs *ahrs, cfusion_vec3 g, cfusion_vec3 acc) {
    ahrs->accelerometer = acc;

    // Overrange: the gyroscope clipped, so the attitude is suspect; keep it but re-enter start-up
    // so the high gain pulls it back onto the accelerometer.
    if (ahrs->overrange_enabled
        && (fabsf(g.x) > ahrs->overrange_threshold || fabsf(g.y) > ahrs->overrange_threshold
            || fabsf(g.z) > ahrs->overrange_threshold)) {
        cfusion_quat q = ahrs->q;
        cfusion_ahrs_restart(ahrs);
        ahrs->q = q;
        ahrs->accelerometer = acc;
        ahrs->overrange_recovery = 1;
    }

    float gain = ahrs->gain;
    if (ahrs->startup) {
        ahrs->startup_gain -= ahrs->startup_gain_step;
        if (ahrs->startup_gain > ahrs->gain) {
            gain = ahrs->startup_gain;
        } else {
            ahrs->startup = 0;
            ahrs->overrange_recovery = 0;
        }
    }

    cfusion_quat q = ahrs->q;
    cfusion_vec3 hg = half_gravity(q);

    cfusion_vec3 feedback = {0.0f, 0.0f, 0.0f};
    ahrs->accelerometer_ignored = 1;
    if (!vec_is_zero(acc)) {
        cfusion_vec3 n = vec_normalise(acc);
        cfusion_vec3 r = vec_cross(n, hg);
        // Beyond 90° the cross product shrinks again; Fusion uses the full-length direction there.
        if (!(n.x * hg.x + n.y * hg.y + n.z * hg.z > 0.0f)) {
            r = vec_is_zero(r) ? r : vec_normalise(r);
        }
        ahrs->half_residual = r;

        if (ahrs->startup || vec_norm_sq(r) <= ahrs->rejection) {
            ahrs->accelerometer_ignored = 0;
            ahrs->recovery_trigger -= 9;
        } else {
            ahrs->recovery_trigger += 1;
        }
        // Rejected for > 90 % of the recent updates: trust the accelerometer until the counter
        // drains (the threshold drops to 0 so recovery lasts until then).
        if (ahrs->recovery_trigger > ahrs->recovery_threshold) {
            ahrs->recovery_threshold = 0;
            ahrs->accelerometer_ignored = 0;
        } else {
            ahrs->recovery_threshold = ahrs->rejection_timeout;
        }
        int32_t t = ahrs->recovery_trigger;
        ahrs->recovery_trigger = t < 0 ? 0 : (t > ahrs->rejection_timeout ? ahrs->rejection_timeout : t);

        if (!ahrs->accelerometer_ignored) {
            feedback = r;
        }
    }

    float dt = ahrs->sample_period;
    cfusion_vec3 v = {
        (g.x * HALF_DEG_TO_RAD + feedback.x * gain) * dt,
        (g.y * HALF_DEG_TO_RAD + feedback.y * gain) * dt,
        (g.z * HALF_DEG_TO_RAD + feedback.z * gain) * dt,
    };
    // q += q ⊗ (0, v): first-order integration of q̇ = ½ q ⊗ ω.
    cfusion_quat p = {
        q.w + (-q.x * v.x - q.y * v.y - q.z * v.z),
        q.x + (q.w * v.x + q.y * v.z - q.z * v.y),
        q.y + (q.w * v.y - q.x * v.z + q.z * v.x),
        q.z + (q.w * v.z + q.x * v.y - q.y * v.x),
    };
    float inv = 1.0f / root(p.w * p.w + p.x * p.x + p.y * p.y + p.z * p.z);
    p = (cfusion_quat){p.w * inv, p.x * inv, p.y * inv, p.z * inv};

    if (ahrs->startup) {
        p = zero_heading(p);
    }
    ahrs->q = p;
}

void cfusion_ahrs_update(cfusion_ahrs *ahrs, cfusion_vec3 g, cfusion_vec3 acc) {
    step(ahrs, g, acc);
}

void cfusion_ahrs_update_samples(
    cfusion_ahrs *ahrs, const cfusion_sample *samples, size_t count, int use_timestamps, cfusion_quat *quaternions) {
    float nominal = ahrs->sample_period;
    for (size_t i = 0; i < count; i++) {
        const cfusion_sample *s = &samples[i];
        if (use_timestamps) {
            float dt = nominal;
            if (i > 0) {
                int64_t d = s->timestamp_ns - samples[i - 1].timestamp_ns;
                if (d > 0 && d < 1000000000) {
                    dt = (float) d * 1e-9f;
                }
            }
            ahrs->sample_period = dt;
        }
        step(ahrs, (cfusion_vec3){s->gx, s->gy, s->gz}, (cfusion_vec3){s->ax, s->ay, s->az});
        if (quaternions != NULL) {
            quaternions[i] = ahrs->q;
        }
    }
    if (use_timestamps) {
        ahrs->sample_period = nominal;
    }
}

cfusion_quat cfusion_ahrs_quaternion(const cfusion_ahrs *ahrs) {
    return ahrs->q;
}

cfusion_ahrs_flags cfusion_ahrs_get_flags(const cfusion_ahrs *ahrs) {
    return (cfusion_ahrs_flags){
        .startup = ahrs->startup,
        .overrange_recovery = ahrs->overrange_recovery,
        .acceleration_recovery = ahrs->recovery_trigger > ahrs->recovery_threshold,
        .accelerometer_ignored = ahrs->accelerometer_ignored,
    };
}

cfusion_ahrs_output cfusion_ahrs_get_output(const cfusion_ahrs *ahrs) {
    cfusion_ahrs_output out;
    out.quaternion = ahrs->q;
    out.gravity = cfusion_quat_gravity(ahrs->q);
    cfusion_vec3 a = ahrs->accelerometer;
    out.linear_body = (cfusion_vec3){a.x - out.gravity.x, a.y - out.gravity.y, a.z - out.gravity.z};
    out.linear_earth = cfusion_quat_rotate(ahrs->q, a);
    out.linear_earth.z -= 1.0f;
    float c = out.gravity.z > 1.0f ? 1.0f : (out.gravity.z < -1.0f ? -1.0f : out.gravity.z);
    out.tilt_deg = acosf(c) * RAD_TO_DEG;
    float e = 2.0f * sqrtf(vec_norm_sq(ahrs->half_residual));
    out.acceleration_error_deg = (e >= 1.0f ? (float) M_PI / 2.0f : asinf(e)) * RAD_TO_DEG;
    out.flags = cfusion_ahrs_get_flags(ahrs);
    return out;
}

// ---------------------------------------------------------------------------------------------

#define BIAS_CUTOFF_HZ 0.02f

cfusion_gyro_bias_settings cfusion_gyro_bias_settings_default(void) {
    return (cfusion_gyro_bias_settings){
        .sample_rate_hz = 100.0f,
        .stationary_threshold_dps = 3.0f,
        .stationary_period_s = 3.0f,
    };
}

void cfusion_gyro_bias_init(cfusion_gyro_bias *bias, const cfusion_gyro_bias_settings *s) {
    bias->offset = (cfusion_vec3){0.0f, 0.0f, 0.0f};
    bias->threshold = s->stationary_threshold_dps;
    bias->coefficient = 2.0f * (float) M_PI * BIAS_CUTOFF_HZ * (1.0f / s->sample_rate_hz);
    bias->timer = 0;
    bias->timeout = (uint32_t) (s->stationary_period_s * s->sample_rate_hz);
}

cfusion_vec3 cfusion_gyro_bias_update(cfusion_gyro_bias *bias, cfusion_vec3 g) {
    g = (cfusion_vec3){g.x - bias->offset.x, g.y - bias->offset.y, g.z - bias->offset.z};
    if (fabsf(g.x) > bias->threshold || fabsf(g.y) > bias->threshold || fabsf(g.z) > bias->threshold) {
        bias->timer = 0;
        return g;
    }
    if (bias->timer < bias->timeout) {
        bias->timer++;
        return g;
    }
    bias->offset.x += g.x * bias->coefficient;
    bias->offset.y += g.y * bias->coefficient;
    bias->offset.z += g.z * bias->coefficient;
    return g;
}

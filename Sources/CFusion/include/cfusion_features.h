// Streaming features for fall detection, O(1) per sample, no allocation: windows live in memory the
// caller provides (sized by the *_storage_bytes functions) and keeps alive as long as the state.
#ifndef CFUSION_FEATURES_H
#define CFUSION_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "cfusion_ahrs.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// 4th-order Butterworth low-pass: two cascaded biquads (transposed direct form II), designed by the
// bilinear transform with the cutoff prewarped, identical in layout to
// scipy.signal.butter(4, cutoff, fs=rate, output='sos'): section 0 holds the overall gain and the
// low-Q pole pair, section 1 the high-Q pair, each numerator ∝ [1, 2, 1]. Coefficients and state are
// double: at low cutoff/rate ratios the poles sit near z = 1 where float state loses the signal.

#define CFUSION_BUTTER4_CHANNELS 3

typedef struct cfusion_biquad {
    double b0, b1, b2, a1, a2; // a0 = 1
} cfusion_biquad;

typedef struct cfusion_butter4 {
    cfusion_biquad section[2];
    /// Delay elements per channel and section.
    double z[CFUSION_BUTTER4_CHANNELS][2][2];
} cfusion_butter4;

/// Designs the two sections; 0 < cutoff_hz < rate_hz / 2, else returns 0 and leaves a pass-through.
/// State is zeroed (as sosfilt without zi). Returns 1 on success.
int cfusion_butter4_design(cfusion_butter4 *filter, double cutoff_hz, double rate_hz);

/// Zero state for every channel.
void cfusion_butter4_reset(cfusion_butter4 *filter);

/// State of `channel` as if the input had always been `x` (scipy's sosfilt_zi(sos) * x): no start-up
/// transient when a signal begins away from 0 (an accelerometer at rest reads 1 g).
void cfusion_butter4_reset_steady(cfusion_butter4 *filter, int channel, float x);

/// Filters one sample of `channel` (0..2).
float cfusion_butter4_step(cfusion_butter4 *filter, int channel, float x);

/// Filters one sample of three channels (x → 0, y → 1, z → 2).
cfusion_vec3 cfusion_butter4_step3(cfusion_butter4 *filter, cfusion_vec3 v);

// ---------------------------------------------------------------------------------------------
// Sliding mean, variance and standard deviation over the last `window` samples, per channel
// (1...3 channels). Welford's add/remove update in double; every 64 window lengths the sums are
// recomputed from the window itself (O(window) once per 64·window samples, O(1) amortised), so
// rounding cannot accumulate over days of streaming. Before the window fills, statistics cover the
// samples so far. Variance is the population variance (divide by n, numpy's ddof=0).

typedef struct cfusion_sliding_stats {
    float *ring;       // window × channels floats, sample-major
    uint32_t window;
    uint32_t channels;
    uint32_t count;    // samples in the window, ≤ window
    uint32_t head;     // next slot to write
    uint32_t until_recompute;
    double mean[3];
    double m2[3];      // sum of squared deviations from the mean
} cfusion_sliding_stats;

typedef struct cfusion_stats3 {
    cfusion_vec3 mean;
    cfusion_vec3 variance;
    cfusion_vec3 stddev;
} cfusion_stats3;

size_t cfusion_sliding_stats_storage_bytes(uint32_t window, uint32_t channels);

/// `storage` holds cfusion_sliding_stats_storage_bytes(window, channels) bytes, float-aligned.
/// Returns 0 when window == 0 or channels is not 1...3.
int cfusion_sliding_stats_init(cfusion_sliding_stats *s, void *storage, uint32_t window, uint32_t channels);

/// Adds one sample (channels beyond `channels` are ignored) and returns the window's statistics.
cfusion_stats3 cfusion_sliding_stats_push(cfusion_sliding_stats *s, cfusion_vec3 v);

/// Statistics of the current window without adding a sample.
cfusion_stats3 cfusion_sliding_stats_get(const cfusion_sliding_stats *s);

// ---------------------------------------------------------------------------------------------
// Sliding maximum and minimum of one channel over the last `window` samples: two monotonic deques
// in fixed rings (each sample enters and leaves each deque once: O(1) amortised, O(window) worst
// case for one sample). Peak-to-peak = max − min. NaN samples are skipped (not windowed).

typedef struct cfusion_extrema_entry {
    float value;
    uint32_t index;
} cfusion_extrema_entry;

typedef struct cfusion_sliding_extrema {
    cfusion_extrema_entry *maxq; // window entries
    cfusion_extrema_entry *minq; // window entries
    uint32_t window;
    uint32_t max_head, max_count;
    uint32_t min_head, min_count;
    uint32_t next_index; // free-running sample counter (wraps; differences stay correct)
} cfusion_sliding_extrema;

typedef struct cfusion_extrema {
    float max, min;
} cfusion_extrema;

size_t cfusion_sliding_extrema_storage_bytes(uint32_t window);

/// `storage` holds cfusion_sliding_extrema_storage_bytes(window) bytes, 4-byte aligned. Returns 0
/// when window == 0.
int cfusion_sliding_extrema_init(cfusion_sliding_extrema *e, void *storage, uint32_t window);

/// Adds one sample and returns the window's maximum and minimum (NaN, NaN while empty).
cfusion_extrema cfusion_sliding_extrema_push(cfusion_sliding_extrema *e, float x);

// ---------------------------------------------------------------------------------------------
// Signal magnitude vector and jerk.

/// |a| = sqrt(x² + y² + z²).
float cfusion_feat_smv(cfusion_vec3 a);

/// Jerk from consecutive accelerometer samples. `norm`: |a_t − a_{t−1}| / dt, the length of the
/// per-axis derivative in g/s; it sees rotations of a constant-length vector that |a| hides.
/// `smv_rate`: (|a_t| − |a_{t−1}|) / dt, the signed derivative of the magnitude in g/s.
/// Both are 0 for the first sample.
typedef struct cfusion_jerk_state {
    cfusion_vec3 previous;
    float previous_smv;
    uint32_t has_previous;
} cfusion_jerk_state;

typedef struct cfusion_jerk {
    cfusion_vec3 axes; // per-axis derivative, g/s
    float norm;
    float smv_rate;
} cfusion_jerk;

void cfusion_jerk_reset(cfusion_jerk_state *j);
cfusion_jerk cfusion_jerk_push(cfusion_jerk_state *j, cfusion_vec3 a, float dt_s);

// ---------------------------------------------------------------------------------------------
// Vertical velocity from earth-frame linear acceleration (z, g), in m/s, up positive. A plain
// integral drifts without bound on any bias (1° of attitude error leaves ~0.017 g on z); this is
// a leaky integrator, exactly discretised for the step dt:
//     v ← v·exp(−dt/τ) + 9.80665·a_z·dt
// i.e. the integral seen through a first-order high-pass of corner 1/(2πτ). A constant bias b
// settles at 9.80665·b·τ instead of growing. The default τ = 1 s keeps 79 % of the speed reached
// by a 0.5 s free fall (the drop phase of a fall) and holds a 0.01 g bias to 0.1 m/s.

typedef struct cfusion_vertical_velocity {
    float velocity;     // m/s
    float tau_s;
    float last_dt;
    float decay;        // exp(−last_dt/τ), recomputed only when dt changes
} cfusion_vertical_velocity;

#define CFUSION_STANDARD_GRAVITY 9.80665f

void cfusion_vertical_velocity_init(cfusion_vertical_velocity *v, float tau_s);
float cfusion_vertical_velocity_push(cfusion_vertical_velocity *v, float earth_z_g, float dt_s);

#ifdef __cplusplus
}
#endif

#endif

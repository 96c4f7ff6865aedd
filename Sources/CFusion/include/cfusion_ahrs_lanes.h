// Many independent AHRS streams at once, for evaluating datasets: 16 streams ("lanes") per block,
// structure of arrays, the same filter as cfusion_ahrs.h lane by lane. Results equal the
// one-stream form bit for bit on the x86-64 baseline kernel; kernels with FMA (AVX2, AVX-512,
// arm64) contract a·b + c, which moves them by float rounding (~0.002° over 10^5 updates).
// One source, clang vector extensions: AVX-512, AVX2+FMA or SSE2 on x86-64 (chosen at run time),
// NEON on arm64.
//
// All lanes of a block share one settings struct; each lane has its own state, flags and,
// optionally, its own sample period per update. Streams shorter than others can be padded with
// any finite samples and their lane ignored afterwards.
#ifndef CFUSION_AHRS_LANES_H
#define CFUSION_AHRS_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "cfusion_ahrs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CFUSION_AHRS_LANES 16

/// One update's readings for the 16 lanes of a block: gyroscope °/s, accelerometer g.
typedef struct cfusion_ahrs_lanes_input {
    float gx[CFUSION_AHRS_LANES], gy[CFUSION_AHRS_LANES], gz[CFUSION_AHRS_LANES];
    float ax[CFUSION_AHRS_LANES], ay[CFUSION_AHRS_LANES], az[CFUSION_AHRS_LANES];
} cfusion_ahrs_lanes_input;

/// The 16 attitudes after one update.
typedef struct cfusion_ahrs_lanes_quat {
    float w[CFUSION_AHRS_LANES], x[CFUSION_AHRS_LANES], y[CFUSION_AHRS_LANES], z[CFUSION_AHRS_LANES];
} cfusion_ahrs_lanes_quat;

/// State of 16 streams. Boolean lanes hold 0 or -1 (all bits set), the vector-compare convention.
/// Not over-aligned on purpose: Swift imports structs aligned beyond 16 bytes as opaque, and the
/// kernel loads with unaligned-safe moves (a 64-byte-aligned allocation is still a little faster).
typedef struct cfusion_ahrs_lanes {
    float qw[CFUSION_AHRS_LANES], qx[CFUSION_AHRS_LANES], qy[CFUSION_AHRS_LANES], qz[CFUSION_AHRS_LANES];
    float ax[CFUSION_AHRS_LANES], ay[CFUSION_AHRS_LANES], az[CFUSION_AHRS_LANES];
    float rx[CFUSION_AHRS_LANES], ry[CFUSION_AHRS_LANES], rz[CFUSION_AHRS_LANES];
    float startup_gain[CFUSION_AHRS_LANES];
    int32_t recovery_trigger[CFUSION_AHRS_LANES];
    int32_t recovery_threshold[CFUSION_AHRS_LANES];
    int32_t startup[CFUSION_AHRS_LANES];
    int32_t overrange_recovery[CFUSION_AHRS_LANES];
    int32_t accelerometer_ignored[CFUSION_AHRS_LANES];
    /// Shared settings (the same derived values as cfusion_ahrs).
    cfusion_ahrs shared;
} cfusion_ahrs_lanes;

/// Which implementation `cfusion_ahrs_lanes_update` uses.
typedef enum cfusion_ahrs_lanes_kernel {
    CFUSION_AHRS_LANES_AUTO = 0,
    /// Baseline ISA: SSE2 on x86-64 (each 16-lane vector is four registers), NEON on arm64.
    CFUSION_AHRS_LANES_BASELINE = 1,
    /// x86-64 with AVX2 and FMA.
    CFUSION_AHRS_LANES_AVX2 = 2,
    /// x86-64 with AVX-512F (one register per vector).
    CFUSION_AHRS_LANES_AVX512 = 3,
} cfusion_ahrs_lanes_kernel;

/// Every lane restarted with `settings`.
void cfusion_ahrs_lanes_init(cfusion_ahrs_lanes *lanes, const cfusion_ahrs_settings *settings);

/// Runs `count` updates on all 16 lanes. `sample_periods` (count × 16 seconds, row per update) may
/// be NULL for the nominal period. `quaternions` (count entries) may be NULL.
void cfusion_ahrs_lanes_update(
    cfusion_ahrs_lanes *lanes, const cfusion_ahrs_lanes_input *input, size_t count, const float *sample_periods,
    cfusion_ahrs_lanes_quat *quaternions);

/// The same with a chosen kernel; a kernel the CPU lacks falls back to the best available one.
/// Returns the kernel that ran.
cfusion_ahrs_lanes_kernel cfusion_ahrs_lanes_update_kernel(
    cfusion_ahrs_lanes *lanes, const cfusion_ahrs_lanes_input *input, size_t count, const float *sample_periods,
    cfusion_ahrs_lanes_quat *quaternions, cfusion_ahrs_lanes_kernel kernel);

/// Runs `steps` updates where lane l reads body-frame samples `streams[l][0 ..< steps]` (one
/// recording per lane, array of structures, e.g. straight from a trial cache); NULL lanes are fed
/// zeros (gyroscope-only, ignored). Samples are transposed 64 steps at a time on the stack, so
/// nothing is allocated. Uses the nominal sample period.
void cfusion_ahrs_lanes_update_streams(
    cfusion_ahrs_lanes *lanes, const struct cfusion_sample *const streams[CFUSION_AHRS_LANES], size_t steps);

/// The kernel AUTO picks on this CPU.
cfusion_ahrs_lanes_kernel cfusion_ahrs_lanes_best_kernel(void);

/// One lane's state as a one-stream filter (for its outputs and flags, or to continue alone).
cfusion_ahrs cfusion_ahrs_lanes_extract(const cfusion_ahrs_lanes *lanes, int lane);

#ifdef __cplusplus
}
#endif

#endif

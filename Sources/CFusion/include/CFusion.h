// CFusion: detectord's C hot path. Every exported symbol starts with `cfusion_`.
// C is used only where it pays: exact record layout shared with Swift, and tight loops.
#ifndef CFUSION_H
#define CFUSION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One IMU reading, the record that moves through the ring and the detectors.
/// Units: timestamp in nanoseconds of a monotonic clock; acceleration in g (9.80665 m/s^2);
/// angular rate in degrees per second. Axes are the body frame after the recording's axis mapping.
typedef struct cfusion_sample {
    int64_t timestamp_ns;
    float ax, ay, az;
    float gx, gy, gz;
} cfusion_sample;

_Static_assert(sizeof(cfusion_sample) == 32, "the hot-path sample must stay at 32 bytes");
_Static_assert(_Alignof(cfusion_sample) == 8, "cfusion_sample is 8-byte aligned");

#include "cfusion_sisfall.h"
#include "cfusion_csv.h"
#include "cfusion_crc32c.h"
#include "cfusion_ahrs.h"
#include "cfusion_ahrs_lanes.h"
#include "cfusion_features.h"
#include "cfusion_ring.h"

#ifdef __cplusplus
}
#endif

#endif

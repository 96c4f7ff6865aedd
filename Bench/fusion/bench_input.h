// Shared by bench_fusion.c and peer_fusion.c so both filters see the same samples.
#ifndef BENCH_INPUT_H
#define BENCH_INPUT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static uint64_t bench_rng = 0x9E3779B97F4A7C15ull;

static inline float bench_noise(void) { // xorshift64*, uniform in [-1, 1)
    bench_rng ^= bench_rng >> 12;
    bench_rng ^= bench_rng << 25;
    bench_rng ^= bench_rng >> 27;
    return (float) ((bench_rng * 0x2545F4914F6CDD1Dull) >> 40) / (float) (1u << 23) - 1.0f;
}

// Walking-like motion at 200 Hz with a 0.2 s impact every 10 s, rows [dt, gx, gy, gz, ax, ay, az]:
// the rejection and recovery paths run, as on real data.
static inline void bench_make_input(float *rows, size_t n) {
    bench_rng = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        float t = (float) i / 200.0f;
        float *r = rows + i * 7;
        r[0] = 1.0f / 200.0f;
        r[1] = 40.0f * sinf(6.0f * t) + bench_noise();
        r[2] = 25.0f * sinf(3.1f * t + 1.0f) + bench_noise();
        r[3] = 15.0f * cosf(2.3f * t) + bench_noise();
        r[4] = 0.15f * sinf(6.0f * t) + 0.02f * bench_noise();
        r[5] = 0.10f * cosf(3.1f * t) + 0.02f * bench_noise();
        r[6] = 1.0f + 0.2f * sinf(12.0f * t) + 0.02f * bench_noise();
        if (i % 2000 < 40) {
            r[4] += 3.0f * bench_noise();
            r[5] += 3.0f * bench_noise();
            r[6] += 3.0f * bench_noise();
        }
    }
}

#endif

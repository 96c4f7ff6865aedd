// AHRS throughput: one stream (cfusion_ahrs_update) and 16-lane blocks (cfusion_ahrs_lanes_update,
// each kernel). Built by run.sh with the flags SwiftPM uses for CFusion in release. Prints one JSON
// object per line: {"name", "kernel", "updates_per_s", "ns_per_update", "checksum"}.
//
//   bench_fusion write-input FILE N     the synthetic input (float32 rows dt,gx,gy,gz,ax,ay,az) for peers
//   bench_fusion one N REPEATS          best of REPEATS runs of N one-stream updates, one call each
//   bench_fusion batch N REPEATS        the same through cfusion_ahrs_update_samples
//   bench_fusion lanes KERNEL BLOCKS STEPS REPEATS
//   bench_fusion streams BLOCKS STEPS REPEATS   the same from per-recording sample arrays
//   bench_fusion count N                N one-stream updates, nothing else (for instruction counts)
#include "CFusion.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_input.h"

#ifndef NDEBUG
#error "benchmarks are built with -DNDEBUG"
#endif

static cfusion_ahrs_settings settings(void) {
    cfusion_ahrs_settings s = cfusion_ahrs_settings_default();
    s.sample_rate_hz = 200.0f;
    return s;
}

static int one(size_t n, int repeats, int quiet) {
    float *rows = malloc(n * 7 * sizeof(float));
    bench_make_input(rows, n);
    cfusion_ahrs_settings s = settings();
    double best = 1e30, checksum = 0;
    for (int k = 0; k < repeats; k++) {
        cfusion_ahrs a;
        cfusion_ahrs_init(&a, &s);
        double t0 = bench_now();
        for (size_t i = 0; i < n; i++) {
            const float *r = rows + i * 7;
            cfusion_ahrs_update(&a, (cfusion_vec3){r[1], r[2], r[3]}, (cfusion_vec3){r[4], r[5], r[6]});
        }
        double t = bench_now() - t0;
        best = t < best ? t : best;
        checksum = a.q.w + a.q.x + a.q.y + a.q.z;
    }
    if (!quiet) {
        printf("{\"name\": \"ahrs_one_stream\", \"kernel\": \"scalar\", \"updates_per_s\": %.0f, \"ns_per_update\": %.3f, "
               "\"checksum\": %.6f}\n", (double) n / best, 1e9 * best / (double) n, checksum);
    }
    free(rows);
    return 0;
}

// The same updates through cfusion_ahrs_update_samples (the daemon's batch path: samples come off
// the ring in spans), where the state can stay in registers between updates.
static int batch(size_t n, int repeats) {
    float *rows = malloc(n * 7 * sizeof(float));
    bench_make_input(rows, n);
    cfusion_sample *samples = malloc(n * sizeof *samples);
    for (size_t i = 0; i < n; i++) {
        const float *r = rows + i * 7;
        samples[i] = (cfusion_sample){(int64_t) i * 5000000, r[4], r[5], r[6], r[1], r[2], r[3]};
    }
    cfusion_ahrs_settings s = settings();
    double best = 1e30, checksum = 0;
    for (int k = 0; k < repeats; k++) {
        cfusion_ahrs a;
        cfusion_ahrs_init(&a, &s);
        double t0 = bench_now();
        cfusion_ahrs_update_samples(&a, samples, n, 0, NULL);
        double t = bench_now() - t0;
        best = t < best ? t : best;
        checksum = a.q.w + a.q.x + a.q.y + a.q.z;
    }
    printf("{\"name\": \"ahrs_one_stream_batch\", \"kernel\": \"scalar\", \"updates_per_s\": %.0f, \"ns_per_update\": %.3f, "
           "\"checksum\": %.6f}\n", (double) n / best, 1e9 * best / (double) n, checksum);
    free(rows);
    free(samples);
    return 0;
}

static int lanes(int kernel, size_t blocks, size_t steps, int repeats) {
    // Each block gets its own input: 16 streams offset in time within the synthetic run.
    size_t n = steps + 16 * 97 + blocks * 13;
    float *rows = malloc(n * 7 * sizeof(float));
    bench_make_input(rows, n);
    cfusion_ahrs_lanes_input *in = aligned_alloc(64, blocks * steps * sizeof *in);
    for (size_t b = 0; b < blocks; b++) {
        for (size_t t = 0; t < steps; t++) {
            cfusion_ahrs_lanes_input *x = &in[b * steps + t];
            for (int l = 0; l < 16; l++) {
                const float *r = rows + (t + (size_t) l * 97 + b * 13) * 7;
                x->gx[l] = r[1], x->gy[l] = r[2], x->gz[l] = r[3];
                x->ax[l] = r[4], x->ay[l] = r[5], x->az[l] = r[6];
            }
        }
    }
    cfusion_ahrs_settings s = settings();
    cfusion_ahrs_lanes *st = aligned_alloc(64, blocks * sizeof *st);
    double best = 1e30, checksum = 0;
    int ran = 0;
    for (int k = 0; k < repeats; k++) {
        for (size_t b = 0; b < blocks; b++) {
            cfusion_ahrs_lanes_init(&st[b], &s);
        }
        double t0 = bench_now();
        for (size_t b = 0; b < blocks; b++) {
            ran = cfusion_ahrs_lanes_update_kernel(&st[b], &in[b * steps], steps, NULL, NULL, kernel);
        }
        double t = bench_now() - t0;
        best = t < best ? t : best;
        checksum = st[0].qw[0] + st[blocks - 1].qz[15];
    }
    static const char *names[] = {"auto", "baseline", "avx2", "avx512"};
    double updates = (double) blocks * (double) steps * 16.0;
    printf("{\"name\": \"ahrs_lanes\", \"kernel\": \"%s\", \"updates_per_s\": %.0f, \"ns_per_update\": %.4f, "
           "\"checksum\": %.6f}\n", names[ran], updates / best, 1e9 * best / updates, checksum);
    free(rows);
    free(in);
    free(st);
    return ran == kernel || kernel == 0 ? 0 : 3;
}

// 16 recordings per block handed over as sample arrays (cfusion_ahrs_lanes_update_streams): the
// transposition into lanes is part of the measured time.
static int streams(size_t blocks, size_t steps, int repeats) {
    size_t n = steps + 16 * 97 + blocks * 13;
    float *rows = malloc(n * 7 * sizeof(float));
    bench_make_input(rows, n);
    cfusion_sample *samples = malloc(n * sizeof *samples);
    for (size_t i = 0; i < n; i++) {
        const float *r = rows + i * 7;
        samples[i] = (cfusion_sample){(int64_t) i * 5000000, r[4], r[5], r[6], r[1], r[2], r[3]};
    }
    cfusion_ahrs_settings s = settings();
    cfusion_ahrs_lanes *st = aligned_alloc(64, blocks * sizeof *st);
    double best = 1e30, checksum = 0;
    for (int k = 0; k < repeats; k++) {
        for (size_t b = 0; b < blocks; b++) {
            cfusion_ahrs_lanes_init(&st[b], &s);
        }
        double t0 = bench_now();
        for (size_t b = 0; b < blocks; b++) {
            const cfusion_sample *lanes_in[16];
            for (int l = 0; l < 16; l++) {
                lanes_in[l] = samples + (size_t) l * 97 + b * 13;
            }
            cfusion_ahrs_lanes_update_streams(&st[b], lanes_in, steps);
        }
        double t = bench_now() - t0;
        best = t < best ? t : best;
        checksum = st[0].qw[0] + st[blocks - 1].qz[15];
    }
    double updates = (double) blocks * (double) steps * 16.0;
    printf("{\"name\": \"ahrs_lanes_streams\", \"kernel\": \"auto\", \"updates_per_s\": %.0f, \"ns_per_update\": %.4f, "
           "\"checksum\": %.6f}\n", updates / best, 1e9 * best / updates, checksum);
    free(rows);
    free(samples);
    free(st);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "write-input") == 0) {
        size_t n = strtoul(argv[3], NULL, 10);
        float *rows = malloc(n * 7 * sizeof(float));
        bench_make_input(rows, n);
        FILE *f = fopen(argv[2], "wb");
        if (!f || fwrite(rows, sizeof(float) * 7, n, f) != n) {
            return 1;
        }
        fclose(f);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "one") == 0) {
        return one(strtoul(argv[2], NULL, 10), atoi(argv[3]), 0);
    }
    if (argc >= 4 && strcmp(argv[1], "batch") == 0) {
        return batch(strtoul(argv[2], NULL, 10), atoi(argv[3]));
    }
    if (argc >= 3 && strcmp(argv[1], "count") == 0) {
        return one(strtoul(argv[2], NULL, 10), 1, 1);
    }
    if (argc >= 5 && strcmp(argv[1], "streams") == 0) {
        return streams(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), atoi(argv[4]));
    }
    if (argc >= 6 && strcmp(argv[1], "lanes") == 0) {
        return lanes(atoi(argv[2]), strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10), atoi(argv[5]));
    }
    fprintf(stderr, "usage: see the comment at the top of bench_fusion.c\n");
    return 2;
}

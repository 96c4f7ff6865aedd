// The peer: x-io Fusion's own C (from the imufusion 1.3.3 sdist that run.sh downloads), same input,
// same settings, same compiler flags. Prints {"name", "updates_per_s", "ns_per_update", "checksum"}.
//   peer_fusion one N REPEATS | peer_fusion count N
#include "Fusion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_input.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        return 2;
    }
    int count_only = strcmp(argv[1], "count") == 0;
    size_t n = strtoul(argv[2], NULL, 10);
    int repeats = count_only ? 1 : (argc > 3 ? atoi(argv[3]) : 3);
    float *rows = malloc(n * 7 * sizeof(float));
    bench_make_input(rows, n);
    FusionAhrsSettings s = fusionAhrsDefaultSettings;
    s.sampleRate = 200.0f;
    s.convention = FusionConventionNwu;
    s.gain = 0.5f;
    s.gyroscopeRange = 2000.0f;
    s.accelerationRejection = 10.0f;
    s.magneticRejection = 0.0f;
    s.rejectionTimeout = 5.0f;
    double best = 1e30, checksum = 0;
    for (int k = 0; k < repeats; k++) {
        FusionAhrs a;
        FusionAhrsInitialise(&a);
        FusionAhrsSetSettings(&a, &s);
        double t0 = bench_now();
        for (size_t i = 0; i < n; i++) {
            const float *r = rows + i * 7;
            FusionAhrsUpdateNoMagnetometer(&a, (FusionVector){.axis = {r[1], r[2], r[3]}}, (FusionVector){.axis = {r[4], r[5], r[6]}});
        }
        double t = bench_now() - t0;
        best = t < best ? t : best;
        FusionQuaternion q = FusionAhrsGetQuaternion(&a);
        checksum = q.element.w + q.element.x + q.element.y + q.element.z;
    }
    if (!count_only) {
        printf("{\"name\": \"fusion_c\", \"updates_per_s\": %.0f, \"ns_per_update\": %.3f, \"checksum\": %.6f}\n",
               (double) n / best, 1e9 * best / (double) n, checksum);
    }
    free(rows);
    return 0;
}

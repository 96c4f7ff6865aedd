// 16 AHRS streams in SIMD lanes. The kernel is written once on 16-wide clang vectors and compiled
// into one function per target ISA; per-lane branches of the scalar filter become masks and
// selects, and the rare paths (overrange, residual beyond 90°, heading hold in start-up) run only
// when some lane needs them.
#include "CFusion.h"

#include <float.h>
#include <math.h>
#include <string.h>

// Every helper taking or returning a vector is always_inline into a kernel compiled for one ISA,
// so no vector ever crosses a call boundary: the ABI-change warning does not apply.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float vf __attribute__((ext_vector_type(16)));
typedef int32_t vi __attribute__((ext_vector_type(16)));

#define HALF_DEG_TO_RAD (0.5f * ((float) M_PI / 180.0f))
#define INLINE static inline __attribute__((always_inline))

_Static_assert(CFUSION_AHRS_LANES == 16, "the kernel is written for 16 lanes");

INLINE vf loadf(const float *p) {
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE vi loadi(const int32_t *p) {
    vi v;
    memcpy(&v, p, sizeof v);
    return v;
}

INLINE void storef(float *p, vf v) { memcpy(p, &v, sizeof v); }
INLINE void storei(int32_t *p, vi v) { memcpy(p, &v, sizeof v); }

// Bitwise select: lanes of m are 0 or -1.
INLINE vf self(vi m, vf a, vf b) { return (vf) (((vi) a & m) | ((vi) b & ~m)); }
INLINE vi seli(vi m, vi a, vi b) { return (a & m) | (b & ~m); }
INLINE int any(vi m) { return __builtin_reduce_or(m) != 0; }
INLINE vf vabs(vf v) { return (vf) ((vi) v & 0x7fffffff); }
INLINE vf vsqrt(vf v) { return __builtin_elementwise_sqrt(v); } // no errno for vectors

INLINE void lanes_run(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t count, const float *periods,
    cfusion_ahrs_lanes_quat *out) {
    const cfusion_ahrs *sh = &st->shared;
    const float gain_set = sh->gain;
    const float step = sh->startup_gain_step;
    const float thr = sh->overrange_enabled ? sh->overrange_threshold : FLT_MAX;
    const float rejection = sh->rejection;
    const int32_t timeout = sh->rejection_timeout;
    const vf dt_nominal = sh->sample_period;

    vf qw = loadf(st->qw), qx = loadf(st->qx), qy = loadf(st->qy), qz = loadf(st->qz);
    vf rx = loadf(st->rx), ry = loadf(st->ry), rz = loadf(st->rz);
    vf sg = loadf(st->startup_gain);
    vi trigger = loadi(st->recovery_trigger), threshold = loadi(st->recovery_threshold);
    vi startup = loadi(st->startup), ovr_rec = loadi(st->overrange_recovery), ignored = loadi(st->accelerometer_ignored);
    vf ax = loadf(st->ax), ay = loadf(st->ay), az = loadf(st->az);

    for (size_t t = 0; t < count; t++) {
        const cfusion_ahrs_lanes_input *s = &in[t];
        vf gx = loadf(s->gx), gy = loadf(s->gy), gz = loadf(s->gz);
        ax = loadf(s->ax);
        ay = loadf(s->ay);
        az = loadf(s->az);

        vi over = (vabs(gx) > thr) | (vabs(gy) > thr) | (vabs(gz) > thr);
        if (__builtin_expect(any(over), 0)) {
            // Soft restart of those lanes: attitude kept, everything else as after a restart.
            startup |= over;
            ovr_rec |= over;
            sg = self(over, (vf) 10.0f, sg);
            trigger = seli(over, (vi) 0, trigger);
            threshold = seli(over, (vi) timeout, threshold);
            rx = self(over, (vf) 0.0f, rx);
            ry = self(over, (vf) 0.0f, ry);
            rz = self(over, (vf) 0.0f, rz);
        }

        sg = self(startup, sg - step, sg);
        vi ramping = startup & (sg > gain_set);
        vf gain = self(ramping, sg, (vf) gain_set);
        ovr_rec &= ~(startup & ~ramping);
        startup = ramping;

        vf hx = qx * qz - qw * qy;
        vf hy = qy * qz + qw * qx;
        vf hz = qw * qw - 0.5f + qz * qz;

        vi zero = (ax == 0.0f) & (ay == 0.0f) & (az == 0.0f);
        vf inv = 1.0f / vsqrt(ax * ax + ay * ay + az * az);
        vf nx = ax * inv, ny = ay * inv, nz = az * inv;
        vf cx = ny * hz - nz * hy;
        vf cy = nz * hx - nx * hz;
        vf cz = nx * hy - ny * hx;
        vi beyond = ~(nx * hx + ny * hy + nz * hz > 0.0f) & ~zero;
        if (__builtin_expect(any(beyond), 0)) {
            vf c2 = cx * cx + cy * cy + cz * cz;
            vf ic = 1.0f / vsqrt(c2);
            vi m = beyond & (c2 != 0.0f);
            cx = self(m, cx * ic, cx);
            cy = self(m, cy * ic, cy);
            cz = self(m, cz * ic, cz);
        }
        rx = self(zero, rx, cx);
        ry = self(zero, ry, cy);
        rz = self(zero, rz, cz);

        vi accept = startup | (cx * cx + cy * cy + cz * cz <= rejection);
        trigger = seli(zero, trigger, trigger + seli(accept, (vi) -9, (vi) 1));
        vi recovering = trigger > threshold;
        threshold = seli(zero, threshold, seli(recovering, (vi) 0, (vi) timeout));
        trigger = seli(trigger < 0, (vi) 0, seli(trigger > timeout, (vi) timeout, trigger));
        ignored = zero | (~accept & ~recovering);

        vf fx = self(ignored, (vf) 0.0f, cx) * gain;
        vf fy = self(ignored, (vf) 0.0f, cy) * gain;
        vf fz = self(ignored, (vf) 0.0f, cz) * gain;

        vf dt = periods ? loadf(periods + t * CFUSION_AHRS_LANES) : dt_nominal;
        vf vx = (gx * HALF_DEG_TO_RAD + fx) * dt;
        vf vy = (gy * HALF_DEG_TO_RAD + fy) * dt;
        vf vz = (gz * HALF_DEG_TO_RAD + fz) * dt;

        vf pw = qw + (-qx * vx - qy * vy - qz * vz);
        vf px = qx + (qw * vx + qy * vz - qz * vy);
        vf py = qy + (qw * vy - qx * vz + qz * vx);
        vf pz = qz + (qw * vz + qx * vy - qy * vx);
        vf n = 1.0f / vsqrt(pw * pw + px * px + py * py + pz * pz);
        qw = pw * n;
        qx = px * n;
        qy = py * n;
        qz = pz * n;

        if (any(startup)) {
            // Heading held at 0 during start-up (see zero_heading in cfusion_ahrs.c).
            vf a = qw * qz + qx * qy;
            vf b = 0.5f - qy * qy - qz * qz;
            vf r = vsqrt(a * a + b * b);
            vi pos = b >= 0.0f;
            vf c = self(pos, r + b, vabs(a));
            vf sn = self(pos, a, (vf) ((vi) (r - b) | ((vi) a & (int32_t) 0x80000000)));
            vf k = 1.0f / vsqrt(c * c + sn * sn);
            c *= k;
            sn *= k;
            vi m = startup & (r != 0.0f);
            vf w2 = c * qw + sn * qz, x2 = c * qx + sn * qy, y2 = c * qy - sn * qx, z2 = c * qz - sn * qw;
            qw = self(m, w2, qw);
            qx = self(m, x2, qx);
            qy = self(m, y2, qy);
            qz = self(m, z2, qz);
        }

        if (out) {
            storef(out[t].w, qw);
            storef(out[t].x, qx);
            storef(out[t].y, qy);
            storef(out[t].z, qz);
        }
    }

    storef(st->qw, qw);
    storef(st->qx, qx);
    storef(st->qy, qy);
    storef(st->qz, qz);
    storef(st->rx, rx);
    storef(st->ry, ry);
    storef(st->rz, rz);
    storef(st->ax, ax);
    storef(st->ay, ay);
    storef(st->az, az);
    storef(st->startup_gain, sg);
    storei(st->recovery_trigger, trigger);
    storei(st->recovery_threshold, threshold);
    storei(st->startup, startup);
    storei(st->overrange_recovery, ovr_rec);
    storei(st->accelerometer_ignored, ignored);
}

typedef void (*lanes_fn)(cfusion_ahrs_lanes *, const cfusion_ahrs_lanes_input *, size_t, const float *, cfusion_ahrs_lanes_quat *);

static void run_baseline(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t n, const float *p, cfusion_ahrs_lanes_quat *o) {
    lanes_run(st, in, n, p, o);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void run_avx2(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t n, const float *p, cfusion_ahrs_lanes_quat *o) {
    lanes_run(st, in, n, p, o);
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma"))) static void run_avx512(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t n, const float *p, cfusion_ahrs_lanes_quat *o) {
    lanes_run(st, in, n, p, o);
}
#endif

cfusion_ahrs_lanes_kernel cfusion_ahrs_lanes_best_kernel(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        return CFUSION_AHRS_LANES_AVX512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return CFUSION_AHRS_LANES_AVX2;
    }
#endif
    return CFUSION_AHRS_LANES_BASELINE;
}

cfusion_ahrs_lanes_kernel cfusion_ahrs_lanes_update_kernel(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t n, const float *p, cfusion_ahrs_lanes_quat *o,
    cfusion_ahrs_lanes_kernel kernel) {
    cfusion_ahrs_lanes_kernel best = cfusion_ahrs_lanes_best_kernel();
    if (kernel == CFUSION_AHRS_LANES_AUTO || kernel > best) {
        kernel = best;
    }
    lanes_fn fn = run_baseline;
#if defined(__x86_64__)
    if (kernel == CFUSION_AHRS_LANES_AVX512) {
        fn = run_avx512;
    } else if (kernel == CFUSION_AHRS_LANES_AVX2) {
        fn = run_avx2;
    }
#endif
    fn(st, in, n, p, o);
    return kernel;
}

void cfusion_ahrs_lanes_update(
    cfusion_ahrs_lanes *st, const cfusion_ahrs_lanes_input *in, size_t n, const float *p, cfusion_ahrs_lanes_quat *o) {
    // The CPU does not change under us: decide once. A data race on this cache is benign (every
    // thread computes the same value), but keep it atomic to stay clean under TSan.
    static int cached = 0;
    int k = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (k == 0) {
        k = (int) cfusion_ahrs_lanes_best_kernel();
        __atomic_store_n(&cached, k, __ATOMIC_RELAXED);
    }
    cfusion_ahrs_lanes_update_kernel(st, in, n, p, o, (cfusion_ahrs_lanes_kernel) k);
}

void cfusion_ahrs_lanes_update_streams(
    cfusion_ahrs_lanes *st, const cfusion_sample *const streams[CFUSION_AHRS_LANES], size_t steps) {
    enum { CHUNK = 64 }; // 64 × 384 B = 24 KiB of staging: stays in L1 with the samples
    cfusion_ahrs_lanes_input staged[CHUNK];
    static const cfusion_sample zero = {0};
    for (size_t done = 0; done < steps; done += CHUNK) {
        size_t n = steps - done < CHUNK ? steps - done : CHUNK;
        // Step-major: each staged row is written contiguously, each lane's samples read in order
        // (measured ~8 % faster than lane-major; compiling this per ISA gained nothing).
        for (size_t t = 0; t < n; t++) {
            cfusion_ahrs_lanes_input *x = &staged[t];
            for (int l = 0; l < CFUSION_AHRS_LANES; l++) {
                const cfusion_sample *s = streams[l] ? &streams[l][done + t] : &zero;
                x->gx[l] = s->gx;
                x->gy[l] = s->gy;
                x->gz[l] = s->gz;
                x->ax[l] = s->ax;
                x->ay[l] = s->ay;
                x->az[l] = s->az;
            }
        }
        cfusion_ahrs_lanes_update(st, staged, n, NULL, NULL);
    }
}

void cfusion_ahrs_lanes_init(cfusion_ahrs_lanes *st, const cfusion_ahrs_settings *settings) {
    memset(st, 0, sizeof *st);
    cfusion_ahrs_init(&st->shared, settings);
    for (int i = 0; i < CFUSION_AHRS_LANES; i++) {
        st->qw[i] = 1.0f;
        st->startup_gain[i] = st->shared.startup_gain;
        st->recovery_threshold[i] = st->shared.rejection_timeout;
        st->startup[i] = -1;
    }
}

cfusion_ahrs cfusion_ahrs_lanes_extract(const cfusion_ahrs_lanes *st, int lane) {
    cfusion_ahrs a = st->shared;
    int i = lane & (CFUSION_AHRS_LANES - 1);
    a.q = (cfusion_quat){st->qw[i], st->qx[i], st->qy[i], st->qz[i]};
    a.accelerometer = (cfusion_vec3){st->ax[i], st->ay[i], st->az[i]};
    a.half_residual = (cfusion_vec3){st->rx[i], st->ry[i], st->rz[i]};
    a.startup_gain = st->startup_gain[i];
    a.recovery_trigger = st->recovery_trigger[i];
    a.recovery_threshold = st->recovery_threshold[i];
    a.startup = st->startup[i] != 0;
    a.overrange_recovery = st->overrange_recovery[i] != 0;
    a.accelerometer_ignored = st->accelerometer_ignored[i] != 0;
    return a;
}

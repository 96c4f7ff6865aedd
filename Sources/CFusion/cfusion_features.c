// Streaming feature kernels; see cfusion_features.h for the definitions and tolerances.
#include "CFusion.h"

#include <math.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Butterworth

int cfusion_butter4_design(cfusion_butter4 *f, double cutoff_hz, double rate_hz) {
    memset(f, 0, sizeof *f);
    if (!(rate_hz > 0.0) || !(cutoff_hz > 0.0) || !(cutoff_hz < rate_hz / 2.0)) {
        f->section[0].b0 = 1.0;
        f->section[1].b0 = 1.0;
        return 0;
    }
    // Prewarp so the digital response is −3 dB exactly at cutoff_hz.
    const double k2 = 2.0 * rate_hz;
    const double w = k2 * tan(M_PI * cutoff_hz / rate_hz);
    // Analog poles w·e^{jθ}, θ = 7π/8 (low Q, section 0 as scipy orders them) and 5π/8 (high Q).
    const double theta[2] = {7.0 * M_PI / 8.0, 5.0 * M_PI / 8.0};
    double gain = w * w * w * w;
    for (int i = 0; i < 2; i++) {
        double sr = w * cos(theta[i]), si = w * sin(theta[i]);
        // Bilinear transform z = (K + s)/(K − s) of the pole and of its conjugate.
        double d = (k2 - sr) * (k2 - sr) + si * si;
        double pr = (k2 * k2 - sr * sr - si * si) / d;
        double pi = 2.0 * k2 * si / d;
        f->section[i] = (cfusion_biquad){1.0, 2.0, 1.0, -2.0 * pr, pr * pr + pi * pi};
        gain /= d; // |K − s|² per conjugate pair: bilinear_zpk's gain factor
    }
    f->section[0].b0 *= gain;
    f->section[0].b1 *= gain;
    f->section[0].b2 *= gain;
    return 1;
}

void cfusion_butter4_reset(cfusion_butter4 *f) {
    memset(f->z, 0, sizeof f->z);
}

void cfusion_butter4_reset_steady(cfusion_butter4 *f, int channel, float x) {
    if (channel < 0 || channel >= CFUSION_BUTTER4_CHANNELS) {
        return;
    }
    double in = x;
    for (int i = 0; i < 2; i++) {
        const cfusion_biquad *s = &f->section[i];
        double y = in * (s->b0 + s->b1 + s->b2) / (1.0 + s->a1 + s->a2);
        double z2 = s->b2 * in - s->a2 * y;
        double z1 = s->b1 * in - s->a1 * y + z2;
        f->z[channel][i][0] = z1;
        f->z[channel][i][1] = z2;
        in = y;
    }
}

static inline double biquad_step(const cfusion_biquad *s, double *z, double x) {
    double y = s->b0 * x + z[0];
    z[0] = s->b1 * x - s->a1 * y + z[1];
    z[1] = s->b2 * x - s->a2 * y;
    return y;
}

float cfusion_butter4_step(cfusion_butter4 *f, int channel, float x) {
    if (channel < 0 || channel >= CFUSION_BUTTER4_CHANNELS) {
        return x;
    }
    double y = biquad_step(&f->section[0], f->z[channel][0], x);
    return (float) biquad_step(&f->section[1], f->z[channel][1], y);
}

cfusion_vec3 cfusion_butter4_step3(cfusion_butter4 *f, cfusion_vec3 v) {
    return (cfusion_vec3){
        cfusion_butter4_step(f, 0, v.x),
        cfusion_butter4_step(f, 1, v.y),
        cfusion_butter4_step(f, 2, v.z),
    };
}

// ---------------------------------------------------------------------------------------------
// Sliding statistics

#define RECOMPUTE_WINDOWS 64u

size_t cfusion_sliding_stats_storage_bytes(uint32_t window, uint32_t channels) {
    return (size_t) window * channels * sizeof(float);
}

int cfusion_sliding_stats_init(cfusion_sliding_stats *s, void *storage, uint32_t window, uint32_t channels) {
    memset(s, 0, sizeof *s);
    if (window == 0 || channels == 0 || channels > 3 || storage == NULL) {
        return 0;
    }
    s->ring = storage;
    s->window = window;
    s->channels = channels;
    s->until_recompute = window * RECOMPUTE_WINDOWS;
    return 1;
}

static void stats_recompute(cfusion_sliding_stats *s) {
    for (uint32_t c = 0; c < s->channels; c++) {
        double sum = 0.0;
        for (uint32_t i = 0; i < s->count; i++) {
            sum += s->ring[i * s->channels + c];
        }
        double mean = s->count ? sum / s->count : 0.0;
        double m2 = 0.0;
        for (uint32_t i = 0; i < s->count; i++) {
            double d = s->ring[i * s->channels + c] - mean;
            m2 += d * d;
        }
        s->mean[c] = mean;
        s->m2[c] = m2;
    }
}

cfusion_stats3 cfusion_sliding_stats_get(const cfusion_sliding_stats *s) {
    cfusion_stats3 r;
    float mean[3] = {0, 0, 0}, var[3] = {0, 0, 0}, sd[3] = {0, 0, 0};
    for (uint32_t c = 0; c < s->channels; c++) {
        double v = s->count ? s->m2[c] / s->count : 0.0;
        if (v < 0.0) {
            v = 0.0; // removal can leave −ε when the window is constant
        }
        mean[c] = (float) s->mean[c];
        var[c] = (float) v;
        sd[c] = (float) sqrt(v);
    }
    r.mean = (cfusion_vec3){mean[0], mean[1], mean[2]};
    r.variance = (cfusion_vec3){var[0], var[1], var[2]};
    r.stddev = (cfusion_vec3){sd[0], sd[1], sd[2]};
    return r;
}

cfusion_stats3 cfusion_sliding_stats_push(cfusion_sliding_stats *s, cfusion_vec3 v) {
    const float in[3] = {v.x, v.y, v.z};
    float *slot = s->ring + (size_t) s->head * s->channels;
    if (s->count < s->window) {
        s->count++;
        for (uint32_t c = 0; c < s->channels; c++) {
            double x = in[c];
            double delta = x - s->mean[c];
            s->mean[c] += delta / s->count;
            s->m2[c] += delta * (x - s->mean[c]);
            slot[c] = in[c];
        }
    } else {
        const double n = s->window;
        for (uint32_t c = 0; c < s->channels; c++) {
            // Replace the oldest value y by x: mean moves by (x − y)/n, and
            // M2 changes by (x − y)(x − mean_new + y − mean_old).
            double x = in[c], y = slot[c];
            double old = s->mean[c];
            s->mean[c] = old + (x - y) / n;
            s->m2[c] += (x - y) * (x - s->mean[c] + y - old);
            slot[c] = in[c];
        }
    }
    s->head = s->head + 1 == s->window ? 0 : s->head + 1;
    if (--s->until_recompute == 0) {
        s->until_recompute = s->window * RECOMPUTE_WINDOWS;
        stats_recompute(s);
    }
    return cfusion_sliding_stats_get(s);
}

// ---------------------------------------------------------------------------------------------
// Sliding extrema

size_t cfusion_sliding_extrema_storage_bytes(uint32_t window) {
    return (size_t) window * 2 * sizeof(cfusion_extrema_entry);
}

int cfusion_sliding_extrema_init(cfusion_sliding_extrema *e, void *storage, uint32_t window) {
    memset(e, 0, sizeof *e);
    if (window == 0 || storage == NULL) {
        return 0;
    }
    e->maxq = storage;
    e->minq = e->maxq + window;
    e->window = window;
    return 1;
}

// The deque occupies q[head], q[head+1], ... (mod window), count entries, oldest first.
static inline uint32_t ring_at(uint32_t head, uint32_t offset, uint32_t window) {
    uint32_t i = head + offset;
    return i >= window ? i - window : i;
}

// Pushes x with a monotonic rule: greater (sign = 1) or smaller (sign = −1) values evict the back.
static inline void deque_push(
    cfusion_extrema_entry *q, uint32_t *head, uint32_t *count, uint32_t window, float x, uint32_t index, float sign) {
    // Entries older than the window leave from the front. `index - front.index` is exact under
    // wrap-around of the free-running counter (unsigned arithmetic).
    while (*count > 0 && index - q[*head].index >= window) {
        *head = ring_at(*head, 1, window);
        (*count)--;
    }
    while (*count > 0 && sign * q[ring_at(*head, *count - 1, window)].value <= sign * x) {
        (*count)--;
    }
    // At most window − 1 entries survive the front pruning, so there is room.
    q[ring_at(*head, *count, window)] = (cfusion_extrema_entry){x, index};
    (*count)++;
}

cfusion_extrema cfusion_sliding_extrema_push(cfusion_sliding_extrema *e, float x) {
    if (x == x) {
        uint32_t index = e->next_index++;
        deque_push(e->maxq, &e->max_head, &e->max_count, e->window, x, index, 1.0f);
        deque_push(e->minq, &e->min_head, &e->min_count, e->window, x, index, -1.0f);
    }
    if (e->max_count == 0) {
        return (cfusion_extrema){NAN, NAN};
    }
    return (cfusion_extrema){e->maxq[e->max_head].value, e->minq[e->min_head].value};
}

// ---------------------------------------------------------------------------------------------
// Magnitude, jerk, vertical velocity

float cfusion_feat_smv(cfusion_vec3 a) {
    return sqrtf(a.x * a.x + a.y * a.y + a.z * a.z);
}

void cfusion_jerk_reset(cfusion_jerk_state *j) {
    memset(j, 0, sizeof *j);
}

cfusion_jerk cfusion_jerk_push(cfusion_jerk_state *j, cfusion_vec3 a, float dt) {
    float smv = cfusion_feat_smv(a);
    cfusion_jerk r = {{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f};
    if (j->has_previous && dt > 0.0f) {
        float inv = 1.0f / dt;
        r.axes = (cfusion_vec3){(a.x - j->previous.x) * inv, (a.y - j->previous.y) * inv, (a.z - j->previous.z) * inv};
        r.norm = cfusion_feat_smv(r.axes);
        r.smv_rate = (smv - j->previous_smv) * inv;
    }
    j->previous = a;
    j->previous_smv = smv;
    j->has_previous = 1;
    return r;
}

void cfusion_vertical_velocity_init(cfusion_vertical_velocity *v, float tau_s) {
    v->velocity = 0.0f;
    v->tau_s = tau_s > 0.0f ? tau_s : 1.0f;
    v->last_dt = 0.0f;
    v->decay = 1.0f;
}

float cfusion_vertical_velocity_push(cfusion_vertical_velocity *v, float earth_z_g, float dt) {
    if (dt != v->last_dt) {
        v->last_dt = dt;
        v->decay = expf(-dt / v->tau_s);
    }
    v->velocity = v->velocity * v->decay + CFUSION_STANDARD_GRAVITY * earth_z_g * dt;
    return v->velocity;
}

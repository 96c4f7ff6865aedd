// libgps from gpsd (Debian: libgps-dev). Every difference between libgps API versions stays in
// this shim, so the Swift client sees one flat fix record whatever gpsd it was built against.
// Debian 12 ships gpsd 3.22 (API 11).
#ifndef CGPS_SHIM_H
#define CGPS_SHIM_H
#include <gps.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>

#if GPSD_API_MAJOR_VERSION < 7
#error "detectord needs libgps API 7 or newer (gpsd 3.18+)"
#endif

// gps_open() reports failure through errno with gpsd's negative NL_* codes; Swift cannot read the
// errno macro portably across the C library's thread-local definition, so read it here.
static inline int cgps_last_error(void) { return errno; }
static inline void cgps_clear_error(void) { errno = 0; }

// The library's own text for those codes (it takes the negative code as gpsd returns it).
static inline const char *cgps_error_string(int code) { return gps_errstr(code); }

static inline int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
static inline int cgps_api_minor(void) { return GPSD_API_MINOR_VERSION; }

/// One TPV (and the latest SKY's satellite count) as plain values. A field gpsd did not set in
/// this report is NaN (doubles) or -1 (integers); `has_time` says whether time_ns is valid.
typedef struct cgps_fix {
    int mode;             // 0 not seen, 1 no fix, 2 = 2D, 3 = 3D
    int status;           // gpsd's STATUS_*: 0 unknown/plain, 2 DGPS, 8 simulated, ...
    int has_time;
    int64_t time_ns;      // UTC, nanoseconds since 1970
    double latitude, longitude, altitude_msl, speed, track, eph, epv;
    int satellites_used;  // -1 when no SKY has reported it
} cgps_fix;

static inline double cgps__field(gps_mask_t set, gps_mask_t bit, double value) {
    return (set & bit) && isfinite(value) ? value : NAN;
}

/// Starts a JSON watch on the connection (policy is per connection: resend after reconnecting).
static inline int cgps_watch(struct gps_data_t *d) {
    return gps_stream(d, WATCH_ENABLE | WATCH_JSON, NULL);
}

/// Reads what is waiting. Returns bytes read, 0 if nothing, -1 on error or when gpsd closed the
/// connection (errno is 0 in that case). The set mask is cleared first because gps_read does not.
static inline int cgps_read(struct gps_data_t *d) {
    d->set = 0;
    errno = 0;
    return gps_read(d, NULL, 0);
}

/// True when the last read carried a TPV report (a SKY alone does not set the mode).
static inline int cgps_has_tpv(const struct gps_data_t *d) { return (d->set & MODE_SET) != 0; }

/// True when the last read carried satellite data (a SKY report).
static inline int cgps_has_sky(const struct gps_data_t *d) { return (d->set & SATELLITE_SET) != 0; }

static inline void cgps_extract(const struct gps_data_t *d, cgps_fix *out) {
    gps_mask_t set = d->set;
    const struct gps_fix_t *f = &d->fix;
    out->mode = (set & MODE_SET) ? f->mode : 0;
#if GPSD_API_MAJOR_VERSION >= 10
    out->status = (set & STATUS_SET) ? f->status : 0;
#else
    out->status = (set & STATUS_SET) ? d->status : 0;
#endif
#if GPSD_API_MAJOR_VERSION >= 9
    out->has_time = (set & TIME_SET) && f->time.tv_sec > 0;
    out->time_ns = (int64_t)f->time.tv_sec * 1000000000 + f->time.tv_nsec;
    out->altitude_msl = cgps__field(set, ALTITUDE_SET, f->altMSL);
    // gpsd's TPV often carries "eph" without "epx"/"epy" (an NMEA receiver without GST: eph from
    // HDOP), and libgps raises HERR_SET only for epx and epy; it resets eph to NaN on every TPV,
    // so a finite eph in a TPV read is this report's.
    if ((set & MODE_SET) && isfinite(f->eph))
        out->eph = f->eph;
    else
        out->eph = (set & HERR_SET) && isfinite(f->epx) && isfinite(f->epy) ? sqrt(f->epx * f->epx + f->epy * f->epy) : NAN;
#else
    out->has_time = (set & TIME_SET) && isfinite(f->time) && f->time > 0;
    out->time_ns = out->has_time ? (int64_t)(f->time * 1e9) : 0;
    out->altitude_msl = cgps__field(set, ALTITUDE_SET, f->altitude);
    out->eph = (set & HERR_SET) && isfinite(f->epx) && isfinite(f->epy) ? sqrt(f->epx * f->epx + f->epy * f->epy) : NAN;
#endif
    out->latitude = cgps__field(set, LATLON_SET, f->latitude);
    out->longitude = cgps__field(set, LATLON_SET, f->longitude);
    out->speed = cgps__field(set, SPEED_SET, f->speed);
    out->track = cgps__field(set, TRACK_SET, f->track);
    out->epv = cgps__field(set, VERR_SET, f->epv);
    out->satellites_used = (set & SATELLITE_SET) ? d->satellites_used : -1;
}
#endif

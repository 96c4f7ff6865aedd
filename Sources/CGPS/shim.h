// libgps from gpsd (Debian: libgps-dev). API differences between gpsd releases stay in this shim so
// the Swift client sees one surface; 3.22 (API 11) is what Debian 12 ships.
#ifndef CGPS_SHIM_H
#define CGPS_SHIM_H
#include <gps.h>
#include <errno.h>

#if GPSD_API_MAJOR_VERSION < 9
#error "detectord needs libgps API 9 or newer (gpsd 3.19+)"
#endif

// gps_open() reports failure through errno with gpsd's negative NL_* codes; Swift cannot read the
// errno macro portably across the C library's thread-local definition, so read it here.
static inline int cgps_last_error(void) { return errno; }

// The library's own text for those codes (it takes the negative code as gpsd returns it).
static inline const char *cgps_error_string(int code) { return gps_errstr(code); }

static inline int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
static inline int cgps_api_minor(void) { return GPSD_API_MINOR_VERSION; }
#endif

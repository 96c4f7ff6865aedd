// libsystemd (Debian: libsystemd-dev): sd_notify for Type=notify readiness, status text and the
// watchdog ping. Without NOTIFY_SOCKET (not started by systemd) sd_notify does nothing.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif

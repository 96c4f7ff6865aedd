// BlueZ's libbluetooth (Debian: libbluetooth-dev; GPL-2.0-or-later): address helpers, HCI device
// access and the L2CAP socket address used for the ATT channel to a keychain button.
#ifndef CBLUETOOTH_SHIM_H
#define CBLUETOOTH_SHIM_H
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
#include <errno.h>

static inline int cbluetooth_last_error(void) { return errno; }
#endif

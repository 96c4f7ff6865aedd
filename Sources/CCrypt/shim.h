// libxcrypt (Debian: libcrypt-dev): salted, deliberately slow password hashing (yescrypt), used for
// the disarm PIN so a stolen database does not give the PIN away.
#ifndef CCRYPT_SHIM_H
#define CCRYPT_SHIM_H
#include <crypt.h>
#include <string.h>
#include <errno.h>
#endif

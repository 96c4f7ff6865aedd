// Linux user-space I2C (kernel i2c-dev ioctls) and libi2c's SMBus helpers (Debian: libi2c-dev, which
// has no pkg-config file, hence the plain link directive in the module map).
#ifndef CI2C_SHIM_H
#define CI2C_SHIM_H
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <i2c/smbus.h>
#include <sys/ioctl.h>
#include <errno.h>

// ioctl is variadic and does not import into Swift; these fixed-signature wrappers do.
static inline int ci2c_set_address(int fd, unsigned long address) { return ioctl(fd, I2C_SLAVE, address); }
static inline int ci2c_functionality(int fd, unsigned long *funcs) { return ioctl(fd, I2C_FUNCS, funcs); }
static inline int ci2c_rdwr(int fd, struct i2c_rdwr_ioctl_data *data) { return ioctl(fd, I2C_RDWR, data); }
static inline int ci2c_last_error(void) { return errno; }
#endif

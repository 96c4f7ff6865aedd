// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum of detectord's recording
// header and blocks. Chosen over zlib's CRC-32 because x86-64 (SSE4.2) and ARMv8 (CRC extension)
// compute it in hardware, so checksumming a live stream costs next to nothing on the Pi.
#ifndef CFUSION_CRC32C_H
#define CFUSION_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Extends `crc` (0 to start; the previous result to continue) over `length` bytes at `data`.
/// Pre- and post-inversion are done inside, so chained calls equal one call over the
/// concatenation. Check value: cfusion_crc32c(0, "123456789", 9) == 0xE3069283.
/// Uses the CPU's CRC instruction when it has one (decided once, at the first call).
uint32_t cfusion_crc32c(uint32_t crc, const void *data, size_t length);

/// The same function computed in portable C (slicing-by-8), whatever the CPU; for tests and
/// for comparing against the hardware path.
uint32_t cfusion_crc32c_portable(uint32_t crc, const void *data, size_t length);

/// 1 when `cfusion_crc32c` uses a hardware instruction on this machine, 0 otherwise.
int cfusion_crc32c_hardware(void);

#ifdef __cplusplus
}
#endif

#endif

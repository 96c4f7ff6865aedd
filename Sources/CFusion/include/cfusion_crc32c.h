// CRC-32C for recording blocks (filled in by the recording-format work).
#ifndef CFUSION_CRC32C_H
#define CFUSION_CRC32C_H
#endif

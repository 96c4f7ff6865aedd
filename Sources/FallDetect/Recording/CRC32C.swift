import CFusion

/// CRC-32C (Castagnoli) as the recording format uses it; the work is done in C
/// (`cfusion_crc32c`), which uses the CPU's CRC instruction where there is one.
enum CRC32C {
    /// Extends `crc` (0 to start) over `bytes`; chained calls equal one call over the whole.
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return cfusion_crc32c(crc, base, bytes.count)
    }

    static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}

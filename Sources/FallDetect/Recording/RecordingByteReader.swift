/// Reads little-endian values at absolute offsets of a byte array. Callers check ranges with
/// `contains` first: a recording's lengths are untrusted, and every read must stay in bounds.
struct RecordingByteReader {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    /// True when `length` bytes starting at `offset` lie inside the array (overflow-safe).
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func u8(_ offset: Int) -> UInt8 { bytes[offset] }
    func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: load(offset)) }
    func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: load(offset)) }
    func i32(_ offset: Int) -> Int32 { Int32(littleEndian: load(offset)) }
    func i64(_ offset: Int) -> Int64 { Int64(littleEndian: load(offset)) }
    func f32(_ offset: Int) -> Float { Float(bitPattern: u32(offset)) }
    func f64(_ offset: Int) -> Double { Double(bitPattern: UInt64(littleEndian: load(offset))) }

    /// UTF-8 text; invalid sequences become U+FFFD rather than failing the read.
    func string(_ offset: Int, _ length: Int) -> String {
        String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard contains(offset, pattern.count) else { return false }
        for i in 0..<pattern.count where bytes[offset + i] != pattern[i] { return false }
        return true
    }

    /// CRC-32C of `length` bytes at `offset`.
    func crc32c(_ offset: Int, _ length: Int) -> UInt32 {
        bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])) }
    }

    private func load<T: FixedWidthInteger>(_ offset: Int) -> T {
        precondition(contains(offset, MemoryLayout<T>.size), "recording read out of bounds")
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }
}

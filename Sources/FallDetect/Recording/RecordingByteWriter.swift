/// Appends little-endian values to a byte array; the recording format is little-endian on every
/// host, so values are converted here rather than at each call site.
struct RecordingByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { append(value.littleEndian) }
    mutating func u32(_ value: UInt32) { append(value.littleEndian) }
    mutating func i32(_ value: Int32) { append(value.littleEndian) }
    mutating func i64(_ value: Int64) { append(value.littleEndian) }
    mutating func f32(_ value: Float) { append(value.bitPattern.littleEndian) }
    mutating func f64(_ value: Double) { append(value.bitPattern.littleEndian) }

    mutating func append(contentsOf other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Overwrites four bytes already written, for lengths known only after the payload.
    mutating func setU32(_ value: UInt32, at offset: Int) {
        let le = value.littleEndian
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: le >> (8 * UInt32(i))) }
    }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends the in-memory bytes of an integer that is already little-endian.
    private mutating func append<T: FixedWidthInteger>(_ littleEndianValue: T) {
        withUnsafeBytes(of: littleEndianValue) { bytes.append(contentsOf: $0) }
    }
}

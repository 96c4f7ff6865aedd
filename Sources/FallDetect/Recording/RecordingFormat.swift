/// The constants of the `.detrec` recording format (Datasets/FORMAT.md), shared by the writer and
/// the reader so the two cannot drift apart.
public enum RecordingFormat {
    /// File name extension of recordings, without the dot.
    public static let fileExtension = "detrec"
    /// `\x89DETREC\n`: the high first byte and the newline catch 7-bit and text-mode transfers.
    public static let magic: [UInt8] = [0x89, 0x44, 0x45, 0x54, 0x52, 0x45, 0x43, 0x0A]
    /// The major version this code reads and writes; other majors are rejected.
    public static let majorVersion: UInt16 = 1
    /// The minor version this code writes; newer minors are read for what 1.0 defines.
    public static let minorVersion: UInt16 = 0

    /// Fixed part of the header before the strings.
    static let headerFixedLength = 52
    /// The smallest valid header: the fixed part, three empty strings and the CRC.
    static let headerMinimumLength = 56
    /// Larger headers are treated as damage rather than allocated.
    static let headerMaximumLength = 1 << 20

    /// `\x9EBLK`, where a reader resynchronises after damage.
    static let syncWord: [UInt8] = [0x9E, 0x42, 0x4C, 0x4B]
    static let blockHeaderLength = 24
    /// Block header plus CRC: a block's size without its payload.
    static let blockOverhead = 28
    /// Payloads above this are damage in major version 1; it bounds what a damaged length can cost.
    static let maximumPayloadLength = 1 << 20

    /// Block types of version 1.0.
    enum BlockType: UInt8 {
        case imu = 1
        case magnetometer = 2
        case gnss = 3
        case events = 4

        /// The record size a 1.0 reader needs; 0 for variable-size records.
        var minimumRecordSize: Int {
            switch self {
            case .imu: 32
            case .magnetometer: 20
            case .gnss: 80
            case .events: 0
            }
        }
    }

    static let imuRecordSize = 32
    static let magnetometerRecordSize = 20
    static let gnssRecordSize = 80
    /// An event's fixed head before its text.
    static let eventHeadLength = 16
    static let maximumStringLength = Int(UInt16.max)

    /// Header `flags` bits.
    static let flagMagnetometer: UInt8 = 1 << 0
    static let flagSynthetic: UInt8 = 1 << 1
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `.detrec` recording (Datasets/FORMAT.md) into memory, keeping every good block.
///
/// Damage is reported, not thrown: a file cut by power loss yields everything up to its last
/// complete block plus a `truncated` problem; a corrupt block or garbage is skipped up to the next
/// good block (found by its sync word and CRC) with a `corrupt-block` problem; blocks of unknown
/// type are skipped with an `unknown-block` problem. Only a missing, foreign or damaged header, or
/// an unknown major version, is thrown. No input makes it crash.
public struct RecordingReader: Sendable {
    public struct Result: Sendable {
        public var recording: Recording
        /// What was wrong with the file, in file order; empty for an intact file.
        public var problems: [FallDetectError]
        /// The file's minor version; newer than `RecordingFormat.minorVersion` means fields or
        /// block types this reader skipped.
        public var minorVersion: Int
    }

    public init() {}

    /// Reads and decodes the file at `path`.
    public func read(path: String) throws(FallDetectError) -> Result {
        try decode(FileContents.read(path, what: "recording"), path: path)
    }

    /// Decodes a recording held in memory; `path` only labels the problems.
    public func decode(_ bytes: [UInt8], path: String? = nil) throws(FallDetectError) -> Result {
        let reader = RecordingByteReader(bytes: bytes)
        let (info, headerLength, minor) = try Self.decodeHeader(reader, path: path)
        var state = DecodeState(reader: reader, path: path)
        state.decodeBlocks(from: headerLength)
        let recording = Recording(
            info: info,
            samples: Self.timeOrdered(state.samples) { $0.timestampNanoseconds },
            magnetometer: Self.timeOrdered(state.magnetometer) { $0.timestampNanoseconds },
            fixes: Self.timeOrdered(state.fixes) { $0.timestampNanoseconds },
            events: Self.timeOrdered(state.events) { $0.timestampNanoseconds })
        return Result(recording: recording, problems: state.problems, minorVersion: Int(minor))
    }

    // MARK: Header

    static func decodeHeader(_ r: RecordingByteReader, path: String?) throws(FallDetectError) -> (RecordingInfo, Int, UInt16) {
        func bad(_ message: String, _ field: String? = nil) -> FallDetectError {
            FallDetectError(.badHeader, message, path: path, field: field)
        }
        let magic = RecordingFormat.magic
        let prefix = min(r.count, magic.count)
        guard Array(r.bytes[0..<prefix]) == Array(magic[0..<prefix]) else {
            throw bad("not a detectord recording (the file does not start with \\x89DETREC\\n)", "magic")
        }
        guard r.count >= 16 else {
            throw bad("the file ends inside the header (\(r.count) bytes)")
        }
        let major = r.u16(8), minor = r.u16(10)
        guard major == RecordingFormat.majorVersion else {
            throw bad(
                "format version \(major).\(minor) is not supported; this reader reads version \(RecordingFormat.majorVersion).x",
                "major")
        }
        let length = Int(r.u32(12))
        guard length >= RecordingFormat.headerMinimumLength, length <= RecordingFormat.headerMaximumLength else {
            throw bad("header length \(length) is outside \(RecordingFormat.headerMinimumLength)...\(RecordingFormat.headerMaximumLength)", "header_length")
        }
        guard length <= r.count else {
            throw bad("the file ends inside the header (\(r.count) of \(length) bytes)", "header_length")
        }
        let crcOffset = length - 4
        let crc = r.crc32c(0, crcOffset)
        guard crc == r.u32(crcOffset) else {
            throw bad("header checksum mismatch: stored \(hex(r.u32(crcOffset))), computed \(hex(crc))", "header_crc")
        }
        var axes: [AxisMapping.SignedAxis] = []
        for (i, name) in ["axis_x", "axis_y", "axis_z"].enumerated() {
            let byte = r.u8(40 + i)
            guard byte & 3 != 3 else { throw bad("axis byte \(hex(byte)) names no sensor axis", name) }
            axes.append(.init(index: Int(byte & 3), sign: byte & 0x80 != 0 ? -1 : 1))
        }
        let flags = r.u8(43)
        let sensorLength = Int(r.u16(44)), deviceLength = Int(r.u16(46)), titleLength = Int(r.u16(48))
        let stringsEnd = RecordingFormat.headerFixedLength + sensorLength + deviceLength + titleLength
        guard stringsEnd <= crcOffset else {
            throw bad("header strings (\(sensorLength)+\(deviceLength)+\(titleLength) bytes) overrun the header", "title_length")
        }
        var offset = RecordingFormat.headerFixedLength
        func text(_ count: Int) -> String {
            defer { offset += count }
            return r.string(offset, count)
        }
        let sensor = SensorInfo(
            sensor: text(sensorLength), device: text(deviceLength),
            accelerometerRange: r.f32(32), gyroscopeRange: r.f32(36), sampleRate: r.f64(24),
            axisMapping: AxisMapping(x: axes[0], y: axes[1], z: axes[2]),
            hasMagnetometer: flags & RecordingFormat.flagMagnetometer != 0)
        let info = RecordingInfo(
            sensor: sensor, startUTCNanoseconds: r.i64(16), title: text(titleLength),
            isSynthetic: flags & RecordingFormat.flagSynthetic != 0)
        return (info, length, minor)
    }

    // MARK: Files and ordering

    /// A stable sort by time stamp, skipped when the stream is already in order (the usual case).
    static func timeOrdered<T>(_ items: [T], _ time: (T) -> Int64) -> [T] {
        var sorted = true
        for i in items.indices.dropFirst() where time(items[i - 1]) > time(items[i]) {
            sorted = false
            break
        }
        if sorted { return items }
        return items.enumerated()
            .sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }
            .map(\.element)
    }
}

extension RecordingReader {
/// The walk over the blocks, kept apart from the public type so its state stays local to a read.
fileprivate struct DecodeState {
    let reader: RecordingByteReader
    let path: String?
    var samples: [IMUSample] = []
    var magnetometer: [MagnetometerSample] = []
    var fixes: [GNSSFix] = []
    var events: [RecordedEvent] = []
    var problems: [FallDetectError] = []
    /// 1-based ordinal of the block (or damaged stretch) being looked at, reported in `line`.
    var ordinal = 0

    init(reader: RecordingByteReader, path: String?) {
        self.reader = reader
        self.path = path
    }

    enum Check {
        case good(length: Int)
        case bad(reason: String, cutShort: Bool)
    }

    mutating func decodeBlocks(from start: Int) {
        var offset = start
        while offset < reader.count {
            ordinal += 1
            switch check(at: offset) {
            case .good(let length):
                decodeBlock(at: offset, length: length)
                offset += length
            case .bad(let reason, let cutShort):
                if let next = nextGoodBlock(after: offset) {
                    report(.corruptBlock,
                           "damaged data at byte \(offset) (\(reason)); skipped \(next - offset) bytes to the next good block at byte \(next)",
                           field: "block")
                    offset = next
                } else if cutShort {
                    report(.truncated,
                           "the last block is cut short at byte \(offset) (\(reason)); dropped \(reader.count - offset) bytes",
                           field: "block")
                    offset = reader.count
                } else {
                    report(.corruptBlock,
                           "damaged data at byte \(offset) (\(reason)) and no good block after it; dropped \(reader.count - offset) bytes",
                           field: "block")
                    offset = reader.count
                }
            }
        }
    }

    /// Whether a good block starts at `offset`. Nothing in the block is trusted before its CRC.
    func check(at offset: Int) -> Check {
        let remaining = reader.count - offset
        let syncMatches = reader.matches(RecordingFormat.syncWord, at: offset)
        guard remaining >= RecordingFormat.blockOverhead else {
            let partialSync = (0..<min(remaining, 4)).allSatisfy { reader.u8(offset + $0) == RecordingFormat.syncWord[$0] }
            return .bad(reason: "only \(remaining) bytes remain, fewer than a block header", cutShort: partialSync)
        }
        guard syncMatches else { return .bad(reason: "no sync word", cutShort: false) }
        let payloadLength = Int(reader.u32(offset + 12))
        guard payloadLength <= RecordingFormat.maximumPayloadLength else {
            return .bad(reason: "payload length \(payloadLength) exceeds the 1 MiB limit", cutShort: false)
        }
        let length = RecordingFormat.blockOverhead + payloadLength
        guard length <= remaining else {
            return .bad(reason: "the block needs \(length) bytes, only \(remaining) remain", cutShort: true)
        }
        let crcOffset = offset + RecordingFormat.blockHeaderLength + payloadLength
        let computed = reader.crc32c(offset, RecordingFormat.blockHeaderLength + payloadLength)
        let stored = reader.u32(crcOffset)
        guard computed == stored else {
            return .bad(reason: "checksum mismatch: stored \(hex(stored)), computed \(hex(computed))", cutShort: false)
        }
        return .good(length: length)
    }

    /// The first offset after `offset` where a good block starts, if any.
    func nextGoodBlock(after offset: Int) -> Int? {
        let first = RecordingFormat.syncWord[0]
        var candidate = offset + 1
        while candidate + RecordingFormat.blockOverhead <= reader.count {
            if reader.bytes[candidate] == first, case .good = check(at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }

    /// Decodes a block whose CRC matched. A structural mismatch drops the whole block: a writer
    /// that wrote it is broken, and half a block is harder to reason about than none.
    mutating func decodeBlock(at offset: Int, length: Int) {
        let rawType = reader.u8(offset + 4)
        let recordSize = Int(reader.u16(offset + 6))
        let count = Int(reader.u32(offset + 8))
        let payload = offset + RecordingFormat.blockHeaderLength
        let payloadLength = length - RecordingFormat.blockOverhead
        guard let type = RecordingFormat.BlockType(rawValue: rawType) else {
            report(.unknownBlock,
                   "block type \(rawType) at byte \(offset) (\(count) records, \(payloadLength) bytes) is unknown to this reader; skipped",
                   field: "block_type")
            return
        }
        guard count >= 1 else {
            report(.corruptBlock, "block at byte \(offset) holds no records; skipped", field: "record_count")
            return
        }
        if type != .events {
            guard recordSize >= type.minimumRecordSize, count * recordSize == payloadLength else {
                report(.corruptBlock,
                       "block at byte \(offset): \(count) records of \(recordSize) bytes do not fill its \(payloadLength)-byte payload; skipped",
                       field: "record_size")
                return
            }
        }
        let r = reader
        switch type {
        case .imu:
            // The hot loop of a long recording: one bounds check per block, then raw loads.
            samples.reserveCapacity(samples.count + count)
            r.bytes.withUnsafeBytes { raw in
                precondition(payload + count * recordSize <= raw.count, "IMU block overruns the file")
                for i in 0..<count {
                    let o = payload + i * recordSize
                    func float(_ at: Int) -> Float {
                        Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o + at, as: UInt32.self)))
                    }
                    samples.append(IMUSample(
                        timestampNanoseconds: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int64.self)),
                        acceleration: SIMD3(float(8), float(12), float(16)),
                        angularRate: SIMD3(float(20), float(24), float(28))))
                }
            }
        case .magnetometer:
            for i in 0..<count {
                let o = payload + i * recordSize
                magnetometer.append(MagnetometerSample(
                    timestampNanoseconds: r.i64(o), field: SIMD3(r.f32(o + 8), r.f32(o + 12), r.f32(o + 16))))
            }
        case .gnss:
            for i in 0..<count {
                let o = payload + i * recordSize
                let present = r.u16(o + 76)
                func has(_ bit: UInt16) -> Bool { present & (1 << bit) != 0 }
                func double(_ bit: UInt16) -> Double? { has(bit) ? r.f64(o + 8 + 8 * Int(bit)) : nil }
                fixes.append(GNSSFix(
                    timestampNanoseconds: r.i64(o),
                    utcNanoseconds: has(0) ? r.i64(o + 8) : nil,
                    mode: GNSSFix.Mode(rawValue: r.u8(o + 78)) ?? .none,
                    status: GNSSFix.Status(rawValue: r.u8(o + 79)) ?? .unknown,
                    latitude: double(1), longitude: double(2), altitude: double(3), speed: double(4),
                    track: double(5), horizontalAccuracy: double(6), verticalAccuracy: double(7),
                    satellitesUsed: has(8) ? Int(r.i32(o + 72)) : nil))
            }
        case .events:
            var decoded: [RecordedEvent] = []
            var o = payload
            let end = payload + payloadLength
            for _ in 0..<count {
                guard o + RecordingFormat.eventHeadLength <= end else { break }
                let textLength = Int(r.u16(o + 14))
                let textStart = o + RecordingFormat.eventHeadLength
                guard textStart + textLength <= end else { break }
                decoded.append(RecordedEvent(
                    timestampNanoseconds: r.i64(o), kind: RecordedEvent.Kind(rawValue: r.u8(o + 12)),
                    value: r.i32(o + 8), text: r.string(textStart, textLength)))
                o = textStart + textLength
            }
            guard decoded.count == count, o == end else {
                report(.corruptBlock,
                       "event block at byte \(offset): \(count) events do not exactly fill its \(payloadLength)-byte payload; skipped",
                       field: "text_length")
                return
            }
            events.append(contentsOf: decoded)
        }
    }

    mutating func report(_ code: FallDetectError.Code, _ message: String, field: String) {
        problems.append(FallDetectError(code, message, path: path, line: ordinal, field: field))
    }
}
}

/// `0x…` with eight (or two) hex digits, as checksums and flag bytes are usually written.
private func hex<T: FixedWidthInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, T.bitWidth / 4 - digits.count)) + digits
}


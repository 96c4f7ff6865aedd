#if canImport(Glibc)
import Glibc
#endif

/// Parsed SisFall trials kept on disk so that a second pass over the dataset skips the text.
///
/// One file per trial (`<directory>/<name>.sftc`): raw Int16 rows, labels and the notices that
/// loading produced, keyed by the size and modification time of the raw file and of the label
/// file. An entry that is missing, stale, truncated or fails its checksum is simply not found,
/// so the caller rebuilds it; entries are written to a temporary file and renamed into place,
/// so readers never see half a file, even with parallel writers.
public struct TrialCache: Sendable {
    /// A cached trial: what `SisFallDataset` needs to rebuild the `SisFallTrial` without parsing.
    public struct Entry: Sendable, Equatable {
        /// Row-major raw values, 9 per row.
        public var rows: [Int16]
        public var labels: [UInt8]?
        public var notices: [String]

        public init(rows: [Int16], labels: [UInt8]?, notices: [String]) {
            self.rows = rows
            self.labels = labels
            self.notices = notices
        }
    }

    public let directory: String

    static let magic: UInt32 = 0x4354_4653  // "SFTC" little-endian
    static let version: UInt32 = 1
    static let headerSize = 56

    /// Creates the directory (and its parents) when missing.
    public init(directory: String) throws {
        self.directory = directory
        try Self.makeDirectories(directory)
    }

    public func path(for name: SisFallTrialName) -> String { "\(directory)/\(name).sftc" }

    /// The cached entry when it matches the files now on disk, else nil.
    public func lookup(_ name: SisFallTrialName, rawPath: String, labelPath: String?) -> Entry? {
        guard let raw = Self.stamp(rawPath) else { return nil }
        let label = labelPath.flatMap(Self.stamp) ?? (-1, 0)
        guard let bytes = try? SisFallParser.readFile(path(for: name)) else { return nil }
        return bytes.withUnsafeBytes { Self.decode($0, raw: raw, label: label) }
    }

    /// Writes an entry for the files as they are now; atomic (temporary file, then rename).
    public func store(_ entry: Entry, for name: SisFallTrialName, rawPath: String, labelPath: String?) throws {
        guard let raw = Self.stamp(rawPath) else {
            throw FallDetectError.io("cannot stat", path: rawPath, errno: errno)
        }
        let label = labelPath.flatMap(Self.stamp) ?? (-1, 0)
        let bytes = Self.encode(entry, raw: raw, label: label)
        let target = path(for: name)
        let temporary = "\(target).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw FallDetectError.io("cannot create", path: temporary, errno: errno) }
        var written = 0
        let failure: Int32 = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return 0
        }
        close(fd)
        if failure != 0 {
            unlink(temporary)
            throw FallDetectError.io("cannot write", path: temporary, errno: failure)
        }
        if rename(temporary, target) != 0 {
            let e = errno
            unlink(temporary)
            throw FallDetectError.io("cannot rename into place", path: target, errno: e)
        }
    }

    // MARK: - Format

    /// Size and modification time (ns) of a file, or nil when it cannot be read.
    static func stamp(_ path: String) -> (size: Int64, mtime: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Layout, little-endian: magic, version, raw size, raw mtime, label size (-1: none), label
    /// mtime, rows, label count (UInt32.max: none), notice bytes, 0; then the Int16 rows, the
    /// labels, the notices joined by "\n", and a 64-bit checksum of everything before it.
    static func encode(_ entry: Entry, raw: (size: Int64, mtime: Int64), label: (size: Int64, mtime: Int64)) -> [UInt8] {
        let notices = Array(entry.notices.joined(separator: "\n").utf8)
        var out = [UInt8]()
        out.reserveCapacity(headerSize + entry.rows.count * 2 + (entry.labels?.count ?? 0) + notices.count + 8)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(magic)
        put(version)
        put(raw.size)
        put(raw.mtime)
        put(label.size)
        put(label.mtime)
        put(UInt32(entry.rows.count / 9))
        put(entry.labels.map { UInt32($0.count) } ?? UInt32.max)
        put(UInt32(notices.count))
        put(UInt32(0))
        entry.rows.withUnsafeBytes { out.append(contentsOf: $0) }  // little-endian hosts only (x86-64, arm64)
        if let labels = entry.labels { out.append(contentsOf: labels) }
        out.append(contentsOf: notices)
        put(out.withUnsafeBytes { checksum($0) })
        return out
    }

    static func decode(
        _ b: UnsafeRawBufferPointer, raw: (size: Int64, mtime: Int64), label: (size: Int64, mtime: Int64)
    ) -> Entry? {
        guard b.count >= headerSize + 8 else { return nil }
        func get<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: b.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard get(0, UInt32.self) == magic, get(4, UInt32.self) == version,
            get(8, Int64.self) == raw.size, get(16, Int64.self) == raw.mtime,
            get(24, Int64.self) == label.size, get(32, Int64.self) == label.mtime
        else { return nil }
        let rows = Int(get(40, UInt32.self))
        let labelWord = get(44, UInt32.self)
        let labelCount = labelWord == UInt32.max ? 0 : Int(labelWord)
        let noticeBytes = Int(get(48, UInt32.self))
        let end = headerSize + rows * 18 + labelCount + noticeBytes
        guard b.count == end + 8,
            get(end, UInt64.self) == checksum(UnsafeRawBufferPointer(rebasing: b[0..<end]))
        else { return nil }
        let values = [Int16](unsafeUninitializedCapacity: rows * 9) { out, n in
            UnsafeMutableRawBufferPointer(out).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: b[headerSize..<headerSize + rows * 18]))
            n = rows * 9
        }
        var offset = headerSize + rows * 18
        let labels = labelWord == UInt32.max ? nil : [UInt8](b[offset..<offset + labelCount])
        offset += labelCount
        let text = String(decoding: b[offset..<offset + noticeBytes], as: UTF8.self)
        let notices = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return Entry(rows: values, labels: labels, notices: notices)
    }

    /// A fast 64-bit checksum (multiply-xor over 8-byte words): it guards against truncated and
    /// damaged files, not against tampering.
    static func checksum(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        let words = b.count / 8
        for i in 0..<words {
            h = (h ^ UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))) &* 0x100_0000_01B3
            h ^= h >> 29
        }
        for i in (words * 8)..<b.count { h = (h ^ UInt64(b[i])) &* 0x100_0000_01B3 }
        return h ^ (h >> 32)
    }

    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FallDetectError.io("cannot create directory", path: current, errno: errno)
            }
        }
    }
}

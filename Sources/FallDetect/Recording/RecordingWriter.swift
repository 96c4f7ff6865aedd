#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a `.detrec` recording (Datasets/FORMAT.md) as a stream: the header at once, then one
/// block per stream whenever that stream's buffer fills, and on `flush()`.
///
/// Built for the live daemon: a power cut loses at most the unflushed buffers and the block being
/// written, and with `syncOnFlush` every flush also reaches the storage. Not thread-safe: one
/// writer belongs to one task.
public final class RecordingWriter {
    public struct Options: Sendable, Equatable {
        /// IMU samples per block (32 bytes each).
        public var imuSamplesPerBlock: Int
        public var magnetometerSamplesPerBlock: Int
        /// Fixes arrive about once a second, so their blocks are kept small.
        public var fixesPerBlock: Int
        public var eventsPerBlock: Int
        /// `fsync` after every flush, so flushed data survive a power cut (costly on SD cards).
        public var syncOnFlush: Bool

        public init(
            imuSamplesPerBlock: Int = 256, magnetometerSamplesPerBlock: Int = 256, fixesPerBlock: Int = 32,
            eventsPerBlock: Int = 32, syncOnFlush: Bool = false
        ) {
            self.imuSamplesPerBlock = imuSamplesPerBlock
            self.magnetometerSamplesPerBlock = magnetometerSamplesPerBlock
            self.fixesPerBlock = fixesPerBlock
            self.eventsPerBlock = eventsPerBlock
            self.syncOnFlush = syncOnFlush
        }
    }

    /// An event block is also written once its payload reaches this size, so long texts cannot
    /// push a block past the format's 1 MiB limit.
    static let eventPayloadFlushThreshold = 64 * 1024

    public let path: String
    public private(set) var info: RecordingInfo
    public let options: Options
    /// Bytes handed to the file (or the in-memory buffer) so far.
    public private(set) var bytesWritten = 0
    public private(set) var isClosed = false

    /// The open file, or nil when encoding into `memory`.
    private var fd: Int32?
    /// A file on a disk, not a device or a pipe (`--out /dev/null`), which has nothing to sync.
    private var isRegularFile = false
    private var memory: [UInt8] = []
    private var imu: [IMUSample] = []
    private var magnetometer: [MagnetometerSample] = []
    private var fixes: [GNSSFix] = []
    private var events: [(event: RecordedEvent, text: [UInt8])] = []
    private var eventPayloadBytes = 0
    private var scratch = RecordingByteWriter(capacity: 256 * 32 + 64)

    /// Creates (or truncates) `path` and writes the header.
    public init(path: String, info: RecordingInfo, options: Options = Options()) throws(FallDetectError) {
        try Self.validate(options)
        let header = try Self.encodeHeader(info)
        self.path = path
        self.info = info
        self.options = options
        // 0600 for the owner alone, an existing file too: motion shows a person's days (docs/security.md).
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FallDetectError.io("cannot create recording", path: path, errno: errno) }
        // A regular file only: `--out /dev/null` as root must not make the device root's alone.
        var status = stat()
        isRegularFile = fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        if isRegularFile { _ = fchmod(fd, 0o600) }
        self.fd = fd
        do {
            try output(header)
        } catch {
            systemClose(fd)
            self.fd = nil
            isClosed = true
            throw error
        }
    }

    /// An in-memory writer for `encode`.
    private init(memoryFor info: RecordingInfo, options: Options) throws(FallDetectError) {
        try Self.validate(options)
        path = "<memory>"
        self.info = info
        self.options = options
        fd = nil
        try output(Self.encodeHeader(info))
    }

    /// A writer that was never closed still flushes and closes, best effort: a daemon that
    /// forgets `close()` should lose as little as possible. Errors here go unreported.
    deinit {
        if !isClosed, fd != nil {
            try? flush()
            if let fd { systemClose(fd) }
        }
    }

    /// Rewrites the header's sensor fields in place: a live chip tells its real rate and ranges
    /// only once it is set up, after the header went out. Names may not change length.
    public func updateSensor(_ sensor: SensorInfo) throws(FallDetectError) {
        try checkOpen()
        var updated = info
        updated.sensor = sensor
        let header = try Self.encodeHeader(updated)
        let old = try Self.encodeHeader(info)
        guard header.count == old.count else {
            throw FallDetectError(.invalidArgument, "the sensor's names changed length; the header cannot be rewritten", path: path, field: "sensor")
        }
        if let fd {
            if let failure = Self.writeAll(header, to: fd, at: 0) {
                throw FallDetectError.io("cannot rewrite the recording's header", path: path, errno: failure)
            }
        } else {
            memory.replaceSubrange(0..<header.count, with: header)
        }
        info = updated
    }

    // MARK: Appending

    public func append(_ sample: IMUSample) throws(FallDetectError) {
        try checkOpen()
        imu.append(sample)
        if imu.count >= options.imuSamplesPerBlock { try writeIMU() }
    }

    public func append(contentsOf samples: some Sequence<IMUSample>) throws(FallDetectError) {
        for sample in samples { try append(sample) }
    }

    public func append(_ sample: MagnetometerSample) throws(FallDetectError) {
        try checkOpen()
        magnetometer.append(sample)
        if magnetometer.count >= options.magnetometerSamplesPerBlock { try writeMagnetometer() }
    }

    public func append(_ fix: GNSSFix) throws(FallDetectError) {
        try checkOpen()
        fixes.append(fix)
        if fixes.count >= options.fixesPerBlock { try writeFixes() }
    }

    /// Texts over 65,535 UTF-8 bytes are cut at the last whole character that fits.
    public func append(_ event: RecordedEvent) throws(FallDetectError) {
        try checkOpen()
        let text = Self.clippedUTF8(event.text)
        events.append((event, text))
        eventPayloadBytes += RecordingFormat.eventHeadLength + text.count
        if events.count >= options.eventsPerBlock || eventPayloadBytes >= Self.eventPayloadFlushThreshold {
            try writeEvents()
        }
    }

    /// Writes every non-empty buffer as a block (IMU, magnetometer, fixes, events), then fsyncs
    /// when `options.syncOnFlush` is set.
    public func flush() throws(FallDetectError) {
        try checkOpen()
        try writeIMU()
        try writeMagnetometer()
        try writeFixes()
        try writeEvents()
        if options.syncOnFlush, let fd, fsync(fd) != 0 {
            throw FallDetectError.io("cannot sync recording", path: path, errno: errno)
        }
    }

    /// Asks the kernel to put what was written on the disk (`fdatasync`): a live recording does so
    /// every few seconds, so a power cut loses seconds, not what the page cache held.
    public func sync() throws(FallDetectError) {
        try checkOpen()
        if isRegularFile, let fd, fdatasync(fd) != 0 {
            throw FallDetectError.io("cannot sync recording", path: path, errno: errno)
        }
    }

    /// Forgets what is buffered and not yet written: after a failed write, a caller that
    /// records the loss itself (a gap event) must not have the same data written later too.
    public func discardBuffered() {
        imu.removeAll(keepingCapacity: true)
        magnetometer.removeAll(keepingCapacity: true)
        fixes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        eventPayloadBytes = 0
    }

    /// Flushes and closes the file. The writer is closed afterwards even when this throws, and
    /// the file descriptor is released either way.
    public func close() throws(FallDetectError) {
        guard !isClosed else { return }
        var failure: FallDetectError?
        do {
            try flush()
        } catch {
            failure = error
        }
        isClosed = true
        if let fd, systemClose(fd) != 0, failure == nil {
            failure = FallDetectError.io("cannot close recording", path: path, errno: errno)
        }
        fd = nil
        if let failure { throw failure }
    }

    // MARK: Whole recordings

    /// Writes a whole recording to `path`, interleaving the streams' blocks in time order the way
    /// a live session would.
    public static func write(_ recording: Recording, to path: String, options: Options = Options()) throws(FallDetectError) {
        let writer = try RecordingWriter(path: path, info: recording.info, options: options)
        do {
            try writer.appendMerged(recording)
            try writer.close()
        } catch {
            try? writer.close()
            throw error
        }
    }

    /// The bytes `write(_:to:options:)` would put in a file.
    public static func encode(_ recording: Recording, options: Options = Options()) throws(FallDetectError) -> [UInt8] {
        let writer = try RecordingWriter(memoryFor: recording.info, options: options)
        try writer.appendMerged(recording)
        try writer.flush()
        writer.isClosed = true
        return writer.memory
    }

    /// Appends all four streams, always taking the earliest pending record next.
    private func appendMerged(_ recording: Recording) throws(FallDetectError) {
        var i = 0, m = 0, f = 0, e = 0
        let big = Int64.max
        while true {
            let ti = i < recording.samples.count ? recording.samples[i].timestampNanoseconds : big
            let tm = m < recording.magnetometer.count ? recording.magnetometer[m].timestampNanoseconds : big
            let tf = f < recording.fixes.count ? recording.fixes[f].timestampNanoseconds : big
            let te = e < recording.events.count ? recording.events[e].timestampNanoseconds : big
            if i >= recording.samples.count && m >= recording.magnetometer.count
                && f >= recording.fixes.count && e >= recording.events.count
            {
                return
            }
            let first = min(ti, tm, tf, te)
            if i < recording.samples.count && ti == first {
                try append(recording.samples[i])
                i += 1
            } else if m < recording.magnetometer.count && tm == first {
                try append(recording.magnetometer[m])
                m += 1
            } else if f < recording.fixes.count && tf == first {
                try append(recording.fixes[f])
                f += 1
            } else {
                try append(recording.events[e])
                e += 1
            }
        }
    }

    // MARK: Blocks

    private func writeIMU() throws(FallDetectError) {
        guard let first = imu.first else { return }
        let samples = imu
        imu.removeAll(keepingCapacity: true)
        try writeBlock(.imu, recordSize: RecordingFormat.imuRecordSize, count: samples.count,
                       firstTimestamp: first.timestampNanoseconds) { out in
            for s in samples {
                out.i64(s.timestampNanoseconds)
                let a = s.acceleration, g = s.angularRate
                out.f32(a.x); out.f32(a.y); out.f32(a.z)
                out.f32(g.x); out.f32(g.y); out.f32(g.z)
            }
        }
    }

    private func writeMagnetometer() throws(FallDetectError) {
        guard let first = magnetometer.first else { return }
        let samples = magnetometer
        magnetometer.removeAll(keepingCapacity: true)
        try writeBlock(.magnetometer, recordSize: RecordingFormat.magnetometerRecordSize, count: samples.count,
                       firstTimestamp: first.timestampNanoseconds) { out in
            for s in samples {
                out.i64(s.timestampNanoseconds)
                out.f32(s.field.x); out.f32(s.field.y); out.f32(s.field.z)
            }
        }
    }

    private func writeFixes() throws(FallDetectError) {
        guard let first = fixes.first else { return }
        let batch = fixes
        fixes.removeAll(keepingCapacity: true)
        try writeBlock(.gnss, recordSize: RecordingFormat.gnssRecordSize, count: batch.count,
                       firstTimestamp: first.timestampNanoseconds) { out in
            for fix in batch {
                var present: UInt16 = 0
                func bit(_ n: UInt16, _ isPresent: Bool) { if isPresent { present |= 1 << n } }
                out.i64(fix.timestampNanoseconds)
                out.i64(fix.utcNanoseconds ?? 0); bit(0, fix.utcNanoseconds != nil)
                let doubles = [fix.latitude, fix.longitude, fix.altitude, fix.speed, fix.track,
                               fix.horizontalAccuracy, fix.verticalAccuracy]
                for (n, value) in doubles.enumerated() {
                    out.f64(value ?? 0)
                    bit(UInt16(n + 1), value != nil)
                }
                let satellites = fix.satellitesUsed.map { Int32(clamping: $0) }
                out.i32(satellites ?? 0); bit(8, satellites != nil)
                out.u16(present)
                out.u8(fix.mode.rawValue)
                out.u8(fix.status.rawValue)
            }
        }
    }

    private func writeEvents() throws(FallDetectError) {
        guard let first = events.first else { return }
        let batch = events
        events.removeAll(keepingCapacity: true)
        eventPayloadBytes = 0
        try writeBlock(.events, recordSize: 0, count: batch.count,
                       firstTimestamp: first.event.timestampNanoseconds) { out in
            for (event, text) in batch {
                out.i64(event.timestampNanoseconds)
                out.i32(event.value)
                out.u8(event.kind.rawValue)
                out.u8(0)
                out.u16(UInt16(text.count))
                out.append(contentsOf: text)
            }
        }
    }

    /// Encodes one block (header, payload, CRC) into `scratch` and outputs it in one go. The
    /// records are taken out of their buffer before writing, so a failed write loses them rather
    /// than letting the buffer grow without bound.
    private func writeBlock(
        _ type: RecordingFormat.BlockType, recordSize: Int, count: Int, firstTimestamp: Int64,
        payload: (inout RecordingByteWriter) -> Void
    ) throws(FallDetectError) {
        scratch.removeAll()
        scratch.append(contentsOf: RecordingFormat.syncWord)
        scratch.u8(type.rawValue)
        scratch.u8(0)
        scratch.u16(UInt16(recordSize))
        scratch.u32(UInt32(count))
        scratch.u32(0)  // payload length, patched below
        scratch.i64(firstTimestamp)
        payload(&scratch)
        let payloadLength = scratch.count - RecordingFormat.blockHeaderLength
        scratch.setU32(UInt32(payloadLength), at: 12)
        scratch.u32(CRC32C.checksum(scratch.bytes))
        try output(scratch.bytes)
    }

    private func output(_ bytes: [UInt8]) throws(FallDetectError) {
        guard let fd else {
            memory.append(contentsOf: bytes)
            bytesWritten += bytes.count
            return
        }
        if let failure = Self.writeAll(bytes, to: fd, at: nil) { throw FallDetectError.io("cannot write recording", path: path, errno: failure) }
        bytesWritten += bytes.count
    }

    /// Writes all of `bytes` at the file's position, or at `offset` when given; the errno of a
    /// failure, nil on success. Reporting errno instead of throwing keeps the typed error.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, at offset: off_t?) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let start = raw.baseAddress! + done
                let n = offset.map { pwrite(fd, start, raw.count - done, $0 + off_t(done)) } ?? systemWrite(fd, start, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
    }

    private func checkOpen() throws(FallDetectError) {
        if isClosed {
            throw FallDetectError(.invalidArgument, "the recording writer is already closed", path: path)
        }
    }

    // MARK: Header

    private static func validate(_ options: Options) throws(FallDetectError) {
        let counts = [
            ("imuSamplesPerBlock", options.imuSamplesPerBlock, RecordingFormat.imuRecordSize),
            ("magnetometerSamplesPerBlock", options.magnetometerSamplesPerBlock, RecordingFormat.magnetometerRecordSize),
            ("fixesPerBlock", options.fixesPerBlock, RecordingFormat.gnssRecordSize),
            ("eventsPerBlock", options.eventsPerBlock, 1),
        ]
        for (name, value, size) in counts where value < 1 || value > RecordingFormat.maximumPayloadLength / 2 / size {
            throw FallDetectError(.invalidArgument, "\(value) records per block is out of range", field: name)
        }
    }

    static func encodeHeader(_ info: RecordingInfo) throws(FallDetectError) -> [UInt8] {
        let sensor = Array(info.sensor.sensor.utf8)
        let device = Array(info.sensor.device.utf8)
        let title = Array(info.title.utf8)
        for (name, text) in [("sensor", sensor), ("device", device), ("title", title)]
        where text.count > RecordingFormat.maximumStringLength {
            throw FallDetectError(
                .invalidArgument, "\(text.count) UTF-8 bytes exceed the header's limit of 65535", field: name)
        }
        var out = RecordingByteWriter(capacity: 64 + sensor.count + device.count + title.count)
        out.append(contentsOf: RecordingFormat.magic)
        out.u16(RecordingFormat.majorVersion)
        out.u16(RecordingFormat.minorVersion)
        out.u32(UInt32(RecordingFormat.headerMinimumLength + sensor.count + device.count + title.count))
        out.i64(info.startUTCNanoseconds)
        out.f64(info.sensor.sampleRate)
        out.f32(info.sensor.accelerometerRange)
        out.f32(info.sensor.gyroscopeRange)
        let mapping = info.sensor.axisMapping
        for axis in [mapping.x, mapping.y, mapping.z] {
            out.u8(UInt8(truncatingIfNeeded: axis.index & 3) | (axis.sign < 0 ? 0x80 : 0))
        }
        var flags: UInt8 = 0
        if info.sensor.hasMagnetometer { flags |= RecordingFormat.flagMagnetometer }
        if info.isSynthetic { flags |= RecordingFormat.flagSynthetic }
        out.u8(flags)
        out.u16(UInt16(sensor.count))
        out.u16(UInt16(device.count))
        out.u16(UInt16(title.count))
        out.u16(0)
        out.append(contentsOf: sensor)
        out.append(contentsOf: device)
        out.append(contentsOf: title)
        out.u32(CRC32C.checksum(out.bytes))
        return out.bytes
    }

    /// UTF-8 of `text`, cut to at most 65,535 bytes without splitting a character.
    static func clippedUTF8(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.count > RecordingFormat.maximumStringLength else { return bytes }
        var end = RecordingFormat.maximumStringLength
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }  // back off continuation bytes
        return Array(bytes[..<end])
    }
}

// Module-qualified aliases: inside the class, `close` and `write` name the methods above.
@inline(__always) @discardableResult
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

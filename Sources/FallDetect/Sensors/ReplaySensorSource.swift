#if canImport(Glibc)
import Glibc
#endif

/// A recording (a `.detrec`, CSV or SisFall file or folder) replayed as if it were the IMU: samples
/// reach the ring when their time comes, `speed` times faster than recorded, optionally looping, so
/// the daemon runs end to end without hardware. Timestamps are moved onto `MonotonicTime` (at
/// speed 1 a sample's timestamp is when it became available, as with a chip's FIFO), and the
/// recording's fixes are handed to `fixes` at their place in time, for the GNSS side.
///
/// A gap in the recording is a gap in the stream: nothing is pushed while it lasts, which is how a
/// stalled sensor looks to the detector.
public final class ReplaySensorSource: SensorSource {
    public let summary: String
    public let sampleRate: Double
    public let accelerometerRange: Float
    /// The gyroscope's full scale the first recording declares (not a positive number for a CSV).
    public let gyroscopeRange: Float
    public let speed: Double
    public let loops: Bool
    private let catalog: ReplayCatalog
    private let first: Recording
    private let onFix: @Sendable (GNSSFix) -> Void
    private let onNotice: @Sendable (String) -> Void

    /// Loads the first recording at once, so a wrong path or an unreadable file stops the daemon
    /// at start-up rather than later; the others load when their turn comes.
    public init(
        paths: [String], speed: Double = 1, loops: Bool = false, catalogOptions: ReplayCatalog.Options = ReplayCatalog.Options(),
        fixes: @escaping @Sendable (GNSSFix) -> Void = { _ in }, notices: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(FallDetectError) {
        guard speed.isFinite, speed > 0, speed <= 1000 else {
            throw FallDetectError(.invalidArgument, "replay speed must lie in (0, 1000], is \(speed)", field: "sensor.replay.speed")
        }
        catalog = try ReplayCatalog(paths: paths, options: catalogOptions)
        guard let entry = catalog.entries.first else {
            throw FallDetectError(.noData, "no recording to replay", path: paths.joined(separator: ", "))
        }
        let loaded: LoadedRecording
        do { loaded = try entry.load() } catch let error as FallDetectError { throw error } catch {
            throw FallDetectError(.io, "\(error)", path: entry.path)
        }
        guard !loaded.recording.samples.isEmpty else {
            throw FallDetectError(.noData, "the recording holds no IMU samples", path: entry.path)
        }
        first = loaded.recording
        // The detector's filters and the ring are sized from it: only rates an IMU really runs at.
        guard SensorInfo.plausibleSampleRates.contains(first.info.sensor.sampleRate) else {
            throw FallDetectError(
                .invalidArgument, "recorded at \(first.info.sensor.sampleRate) Hz; a live replay needs 10 to 10000 Hz", path: entry.path,
                field: "sample rate")
        }
        sampleRate = first.info.sensor.sampleRate
        accelerometerRange = first.info.sensor.accelerometerRange
        gyroscopeRange = first.info.sensor.gyroscopeRange
        self.speed = speed
        self.loops = loops
        onFix = fixes
        onNotice = notices
        let count = catalog.entries.count
        summary = "replay of \(count == 1 ? entry.name : "\(count) recordings") at \(speed == 1 ? "real time" : "\(speed)x")\(loops ? ", looping" : "")"
    }

    public func run(
        into producer: borrowing SampleRing.Producer, batchWritten: () -> Void, shouldStop: () -> Bool
    ) throws(FallDetectError) -> SensorSourceEnd {
        // The monotonic time the next recording's first sample maps to.
        var cursor = MonotonicTime.nowNanoseconds()
        let period = Int64((1e9 / sampleRate).rounded())
        repeat {
            for (index, entry) in catalog.entries.enumerated() {
                guard let recording = recording(at: index, entry) else { continue }
                guard let end = play(recording, from: cursor, into: producer, batchWritten: batchWritten, shouldStop: shouldStop) else {
                    return .stopped
                }
                cursor = end + period
            }
        } while loops && !shouldStop()
        return shouldStop() ? .stopped : .exhausted
    }

    /// The recording at `index`, or nil (with a notice) when it cannot run at this source's rate.
    private func recording(at index: Int, _ entry: ReplayCatalog.Entry) -> Recording? {
        if index == 0 { return first }
        do {
            let loaded = try entry.load()
            guard abs(loaded.recording.info.sensor.sampleRate - sampleRate) < 0.01 * sampleRate else {
                onNotice("\(entry.name): recorded at \(loaded.recording.info.sensor.sampleRate) Hz, not \(sampleRate) Hz like the first; skipped")
                return nil
            }
            return loaded.recording
        } catch {
            onNotice("\(entry.name): \(error); skipped")
            return nil
        }
    }

    /// Plays one recording with its first sample at monotonic `start`; returns the last sample's
    /// monotonic time, or nil when asked to stop.
    private func play(
        _ recording: Recording, from start: Int64, into producer: borrowing SampleRing.Producer,
        batchWritten: () -> Void, shouldStop: () -> Bool
    ) -> Int64? {
        let samples = recording.samples
        guard let origin = samples.first?.timestampNanoseconds else { return start }
        let wallStart = MonotonicTime.nowNanoseconds()
        var next = 0
        var nextFix = recording.fixes.firstIndex { $0.timestampNanoseconds >= origin } ?? recording.fixes.count
        var batch: [IMUSample] = []
        batch.reserveCapacity(256)
        while next < samples.count {
            if shouldStop() { return nil }
            // Recording time reached so far at this speed.
            let elapsed = Double(MonotonicTime.nowNanoseconds() - wallStart) * speed
            let reached = Self.saturating(origin, plus: Int64(min(elapsed, 9e18)))
            batch.removeAll(keepingCapacity: true)
            while next < samples.count, samples[next].timestampNanoseconds <= reached {
                var sample = samples[next]
                sample.timestampNanoseconds = Self.moved(sample.timestampNanoseconds, from: origin, to: start)
                batch.append(sample)
                next += 1
            }
            while nextFix < recording.fixes.count, recording.fixes[nextFix].timestampNanoseconds <= reached {
                var fix = recording.fixes[nextFix]
                fix.timestampNanoseconds = Self.moved(fix.timestampNanoseconds, from: origin, to: start)
                onFix(fix)
                nextFix += 1
            }
            if !batch.isEmpty {
                // A recording has all its samples: where a chip would overrun the ring, the replay
                // waits for the detector (at 500x and more a 10 ms step is more than the ring holds).
                var offset = 0
                while offset < batch.count {
                    let room = min(batch.count - offset, producer.freeCount)
                    if room > 0 {
                        offset += batch.withUnsafeBufferPointer { producer.push(contentsOf: UnsafeBufferPointer(rebasing: $0[offset..<offset + room])) }
                        batchWritten()
                    }
                    if offset < batch.count {
                        if shouldStop() { return nil }
                        Self.sleep(nanoseconds: 1_000_000)
                    }
                }
            }
            guard next < samples.count else { break }
            // Wake for the next sample, in 10 ms steps at most (a FIFO's batch at 100 Hz), and at
            // least every 50 ms during a gap so a stop request is seen.
            let due = (Double(samples[next].timestampNanoseconds) - Double(origin)) / speed
            let wait = max(0, min(50_000_000, max(10_000_000, due - Double(MonotonicTime.nowNanoseconds() - wallStart))))
            Self.sleep(nanoseconds: Int64(wait))
        }
        // The recording's last period runs out too: a looped recording of one sample would
        // otherwise come round again at once, as fast as the ring takes it.
        let length = (Double(samples[samples.count - 1].timestampNanoseconds) - Double(origin) + 1e9 / sampleRate) / speed
        while Double(MonotonicTime.nowNanoseconds() - wallStart) < length {
            if shouldStop() { return nil }
            Self.sleep(nanoseconds: Int64(min(50_000_000, max(1_000_000, length - Double(MonotonicTime.nowNanoseconds() - wallStart)))))
        }
        return Self.moved(samples[samples.count - 1].timestampNanoseconds, from: origin, to: start)
    }

    /// `t` as the same distance from `start` as it was from `origin`, saturating: a recording's
    /// times are its own (a corrupt one may hold anything) and must not trap the sensor thread.
    static func moved(_ t: Int64, from origin: Int64, to start: Int64) -> Int64 {
        let (offset, overflow) = t.subtractingReportingOverflow(origin)
        return saturating(start, plus: overflow ? (t < origin ? .min : .max) : offset)
    }

    static func saturating(_ a: Int64, plus b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : sum
    }

    static func sleep(nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

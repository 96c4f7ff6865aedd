import FallDetect
import Foundation
import Synchronization

/// Writes what the live sensors deliver (samples, fixes, gaps) to a `.detrec` file on a thread of
/// its own: producers only append to a queue under a short lock, so a slow SD card never delays
/// the sensor or the detector. The queue holds at most `limitSeconds` of samples; beyond that the
/// newest are dropped and counted, and the recording gets a gap event saying so. A write that
/// fails (a full card) is told at once through `failed`, not only when the recording closes, and
/// what it lost is a gap event in the recording once writes succeed again.
final class SensorRecorder: Sendable {
    struct Totals: Sendable, Equatable {
        var samples = 0
        var fixes = 0
        var events = 0
        var droppedSamples = 0
    }

    private struct Queue {
        var samples: [IMUSample] = []
        var fixes: [GNSSFix] = []
        var events: [RecordedEvent] = []
        var dropped = 0
        var droppedFrom: Int64?
        var totals = Totals()
        var failure: FallDetectError?
        var closing = false
    }

    let path: String
    private let writer: Mutex<RecordingWriter>
    private let queue = Mutex(Queue())
    private let limit: Int
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let failed: @Sendable (FallDetectError) -> Void

    /// `failed`: called on the writer's thread when writing starts failing (once per stretch of
    /// failures).
    init(path: String, info: RecordingInfo, limitSeconds: Double = 60, failed: @escaping @Sendable (FallDetectError) -> Void = { _ in }) throws(FallDetectError) {
        self.path = path
        self.failed = failed
        writer = Mutex(try RecordingWriter(path: path, info: info))
        limit = max(1024, Int(info.sensor.sampleRate * limitSeconds))
        let thread = Thread { [self] in writeLoop() }
        thread.name = "recorder"
        thread.start()
    }

    /// The header for a live recording: timestamps are the monotonic clock, so timestamp zero is
    /// boot time in UTC.
    static func info(source: any SensorSource, gyroscopeRange: Float, title: String) -> RecordingInfo {
        let bootUTC = Int64(Date().timeIntervalSince1970 * 1e9) - MonotonicTime.nowNanoseconds()
        let sensor = SensorInfo(
            sensor: source.condition?.chip ?? source.summary, device: ProcessInfo.processInfo.hostName,
            accelerometerRange: source.accelerometerRange, gyroscopeRange: gyroscopeRange, sampleRate: source.sampleRate)
        return RecordingInfo(sensor: sensor, startUTCNanoseconds: bootUTC, title: title)
    }

    func append(_ samples: UnsafeBufferPointer<IMUSample>) {
        queue.withLock { q in
            let room = max(0, limit - q.samples.count)
            q.samples.append(contentsOf: samples.prefix(room))
            if samples.count > room {
                if q.dropped == 0 { q.droppedFrom = samples[room].timestampNanoseconds }
                q.dropped += samples.count - room
            }
        }
    }

    func append(_ fix: GNSSFix) { queue.withLock { $0.fixes.append(fix) } }

    func append(_ event: RecordedEvent) { queue.withLock { $0.events.append(event) } }

    var totals: Totals { queue.withLock { $0.totals } }

    /// The rate and ranges the chip was really set to (after the header went out): the header is
    /// rewritten, so a replay builds its detector for what the samples are.
    func chipConfigured(_ chip: SensorScale) {
        var failure: FallDetectError?
        writer.withLock { w in
            var sensor = w.info.sensor
            sensor.sampleRate = chip.rateHz
            sensor.accelerometerRange = chip.accelerometerRange
            sensor.gyroscopeRange = chip.gyroscopeRange
            guard sensor != w.info.sensor, !w.isClosed else { return }
            do throws(FallDetectError) { try w.updateSensor(sensor) } catch { failure = error }
        }
        if let failure { queue.withLock { q in if q.failure == nil { q.failure = failure } } }
    }

    /// Writes what is queued, closes the file and returns the totals, or the first write error.
    func close() throws(FallDetectError) -> Totals {
        queue.withLock { $0.closing = true }
        wake.signal()
        finished.wait()
        return try queue.withLock { (q) throws(FallDetectError) in
            if let failure = q.failure { throw failure }
            return q.totals
        }
    }

    private func writeLoop() {
        // Samples lost to failed writes since the last good one, and from when.
        var lost = 0
        var lostFrom: Int64?
        var lostBecause: FallDetectError?
        var syncedAt = MonotonicTime.nowNanoseconds()
        var syncFailed = false
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(500))
            let (samples, fixes, events, dropped, droppedFrom, closing) = queue.withLock { q in
                defer {
                    q.samples.removeAll(keepingCapacity: true)
                    q.fixes.removeAll()
                    q.events.removeAll()
                    q.dropped = 0
                    q.droppedFrom = nil
                }
                return (q.samples, q.fixes, q.events, q.dropped, q.droppedFrom, q.closing)
            }
            var failure: FallDetectError?
            var syncFailure: FallDetectError?
            writer.withLock { w in
                do throws(FallDetectError) {
                    if lost > 0, let at = lostFrom {
                        try w.append(RecordedEvent(timestampNanoseconds: at, kind: .gap, value: Int32(clamping: lost),
                                                   text: "recording failed: \(lostBecause?.description ?? "write error")"))
                    }
                    try w.append(contentsOf: samples)
                    for fix in fixes { try w.append(fix) }
                    for event in events { try w.append(event) }
                    if dropped > 0, let at = droppedFrom {
                        try w.append(RecordedEvent(timestampNanoseconds: at, kind: .gap, value: Int32(clamping: dropped), text: "recorder fell behind the disk"))
                    }
                    try w.flush()
                    // Every 5 s: a power cut then loses seconds, not the 5-30 s the page cache holds.
                    // What was written stays written if the sync fails: told, not counted as lost.
                    if closing || MonotonicTime.nowNanoseconds() - syncedAt >= 5_000_000_000 {
                        syncedAt = MonotonicTime.nowNanoseconds()
                        do throws(FallDetectError) { try w.sync() } catch { syncFailure = error }
                    }
                    if closing { try w.close() }
                    lost = 0
                    lostFrom = nil
                    lostBecause = nil
                } catch {
                    failure = error
                    // Counted below as lost, once; written later it would be twice over.
                    w.discardBuffered()
                }
            }
            if let syncFailure, failure == nil, !syncFailed {
                syncFailed = true
                failed(syncFailure)
            }
            if let failure {
                if lostBecause == nil { failed(failure) }
                lost += samples.count + dropped
                lostFrom = lostFrom ?? samples.first?.timestampNanoseconds ?? droppedFrom
                lostBecause = failure
            }
            queue.withLock { q in
                q.totals.samples += samples.count
                q.totals.fixes += fixes.count
                q.totals.events += events.count + (dropped > 0 ? 1 : 0)
                q.totals.droppedSamples += dropped
                if q.failure == nil { q.failure = failure }
            }
            if closing {
                finished.signal()
                return
            }
        }
    }
}

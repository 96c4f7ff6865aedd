import Dispatch
import FallDetect
import Foundation
import Synchronization

/// The one detector task of the live path: it drains the ring in batches, feeds fixes and samples
/// to the profile's pipeline in time order, and reports detections, the stages' outcomes and the
/// sensor's health. It runs on a thread of its own so that a slow disk or network never delays a
/// detection, and sleeps on a semaphore the sensor signals after each batch.
final class DetectorLoop: @unchecked Sendable {
    // @unchecked: `consumer` and `pipeline` are touched only by the thread that calls `run`; the
    // rest is immutable or behind `statistics`' and `pendingFixes`' locks.

    enum Output: Sendable {
        case detection(DetectionEvent)
        case followUp(FollowUpOutcome)
        case sensorStalled(seconds: Double)
        case sensorResumed(afterSeconds: Double)
        /// Samples have come without a stall for `steadySeconds` since the last stall (or since
        /// this process's first samples): the fault is over, one an earlier process saved (it was
        /// killed or the device rebooted while the sensor was stalled) included. A sensor that
        /// stalls and resumes every few seconds stays one fault, from its first stall on, so it
        /// can last long enough for `fault_message_minutes`.
        case sensorSteady
        /// The source ended while a fault was not over: the fault is over, not the sensor back.
        /// Told by this thread, after any stall it told, so the two cannot cross.
        case sensorEndedWhileStalled
        /// The device was taken off or put on again (`WearMonitor`).
        case wear(WearChange)
    }

    let ring: SampleRing
    private let consumer: SampleRing.Consumer
    private var pipeline: DetectionPipeline
    private let stallNanoseconds: Int64
    private let steadyNanoseconds: Int64
    private let output: @Sendable (Output) -> Void
    private let metrics: DaemonMetrics
    private let wake = DispatchSemaphore(value: 0)
    let statistics = Mutex(LiveStatistics())
    private let pendingFixes = Mutex<[GNSSFix]>([])
    /// A pipeline for another profile (chosen on the page), taken up before the next batch.
    private let pendingPipeline = Mutex<DetectionPipeline?>(nil)
    /// When each batch not yet judged reached the ring (MonotonicTime).
    private let pushTimes = Mutex<[Int64]>([])
    private let sourceEnded = Atomic<Bool>(false)
    /// The workflow went back to watching: the pipeline's refractory period ends before the next batch.
    private let rearmPending = Atomic<Bool>(false)
    /// `run --record`: a copy of every sample and fix goes to the recorder's queue.
    private let recorder: SensorRecorder?

    init(
        ring: SampleRing, pipeline: DetectionPipeline, stallSeconds: Double, metrics: DaemonMetrics, recorder: SensorRecorder? = nil,
        output: @escaping @Sendable (Output) -> Void
    ) {
        self.recorder = recorder
        self.metrics = metrics
        self.ring = ring
        consumer = ring.makeConsumer()
        self.pipeline = pipeline
        stallNanoseconds = Int64(stallSeconds * 1e9)
        steadyNanoseconds = Int64(Self.steadySeconds * 1e9)
        self.output = output
    }

    /// The sensor put a batch into the ring: the decision latency is measured from here, so it
    /// is the daemon's own delay, not the sensor's batching (a FIFO watermark, the replay's 10 ms).
    func batchWritten() {
        let now = MonotonicTime.nowNanoseconds()
        pushTimes.withLock { $0.append(now) }
        wake.signal()
    }

    /// How long samples must come without a stall before a sensor fault is over. Long enough to
    /// span a sensor that stalls and resumes every few seconds (a loose connector, a bus that
    /// hangs now and then), short enough that a fault that is over stops showing soon after.
    static let steadySeconds: Double = 10

    /// Wakes the loop so it sees a stop request at once.
    func signalStop() { wake.signal() }

    /// A fix for the crash detector's speed gate; applied before the next batch.
    func push(fix: GNSSFix) {
        pendingFixes.withLock { $0.append(fix) }
    }

    /// `replacement` with what the running pipeline learned of how the device is worn
    /// (`DetectionPipeline.takeOver(from:)`).
    static func takingOver(_ replacement: DetectionPipeline, from running: DetectionPipeline) -> DetectionPipeline {
        var next = replacement
        next.takeOver(from: running)
        return next
    }

    /// Runs `replacement` from the next batch on. The windows start empty again, which costs
    /// at most one window's worth of detection right after a change of profile.
    func replace(pipeline replacement: DetectionPipeline) {
        pendingPipeline.withLock { $0 = replacement }
        wake.signal()
    }

    /// The alert was answered and protection is back (`DetectionPipeline.rearm()`): a fall
    /// from the next batch on is a new event.
    func rearm() {
        rearmPending.store(true, ordering: .releasing)
        wake.signal()
    }

    /// The source has ended (a replay that does not loop): silence is not a fault any more.
    func sourceDidEnd() {
        sourceEnded.store(true, ordering: .releasing)
        statistics.withLock { $0.health = .ended }
        wake.signal()
    }

    /// Runs until `shouldStop()`; checks it at least every 100 ms.
    func run(shouldStop: () -> Bool) {
        let capacity = 512
        let buffer = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var lastSampleAt = MonotonicTime.nowNanoseconds()
        var stalled = false
        var streaming = false
        // A fault the workflow may hold and that is not over yet: one an earlier process saved
        // counts, so it starts open. `steadySince` is when samples last came back (MonotonicTime).
        var faultOpen = true
        var steadySince = lastSampleAt
        var rateWindowStart = lastSampleAt
        var rateWindowCount = 0
        var finalPass = false
        var behind = false
        while !finalPass {
            // One pass more once asked to stop: the sensor stops first, and its last batch (a fall's
            // last samples) is still judged rather than left in the ring.
            finalPass = shouldStop()
            if !finalPass, !behind { _ = wake.wait(timeout: .now() + .milliseconds(100)) }
            var consumed = 0
            var events: [Output] = []
            // Batches pushed before the pass starts are surely judged by its end: the ring holds at
            // most a pass's worth.
            let pushed = pushTimes.withLock { t in
                defer { t.removeAll(keepingCapacity: true) }
                return t
            }
            if let replacement = pendingPipeline.withLock({ p in
                defer { p = nil }
                return p
            }) {
                pipeline = Self.takingOver(replacement, from: pipeline)
            }
            if rearmPending.exchange(false, ordering: .acquiringAndReleasing) { pipeline.rearm() }
            let fixes = pendingFixes.withLock { f in
                defer { f.removeAll(keepingCapacity: true) }
                return f
            }
            for fix in fixes {
                recorder?.append(fix)
                for e in pipeline.push(fix: fix) { events.append(.detection(e)) }
            }
            var newest: Int64 = 0
            // A pass judges at most a ring's worth: a source that refills the ring as fast as it is
            // drained (a fast replay that waits for the detector, a detector slowed by the CPU)
            // would otherwise hold back the pass's detections, the watchdog's stamps and a stop.
            // The last pass drains it all: the sensor has stopped.
            var left = finalPass ? Int.max : ring.capacity
            behind = true
            while left > 0 {
                let n = consumer.pop(into: buffer)
                if n == 0 {
                    behind = false
                    break
                }
                left -= n
                recorder?.append(UnsafeBufferPointer(rebasing: buffer[0..<n]))
                for i in 0..<n {
                    for e in pipeline.push(buffer[i]) { events.append(.detection(e)) }
                    for outcome in pipeline.takeFollowUps() { events.append(.followUp(outcome)) }
                    for change in pipeline.takeWearChanges() { events.append(.wear(change)) }
                }
                newest = buffer[n - 1].timestampNanoseconds
                consumed += n
            }
            let now = MonotonicTime.nowNanoseconds()
            if consumed > 0 {
                if !streaming {
                    streaming = true
                    steadySince = now
                }
                if stalled {
                    stalled = false
                    steadySince = now
                    events.append(.sensorResumed(afterSeconds: Double(now - lastSampleAt) / 1e9))
                }
                if faultOpen, now - steadySince >= steadyNanoseconds {
                    faultOpen = false
                    events.append(.sensorSteady)
                }
                lastSampleAt = now
                rateWindowCount += consumed
            } else if faultOpen, sourceEnded.load(ordering: .acquiring) {
                stalled = false
                faultOpen = false
                events.append(.sensorEndedWhileStalled)
            } else if !stalled, !sourceEnded.load(ordering: .acquiring), now - lastSampleAt >= stallNanoseconds {
                stalled = true
                faultOpen = true
                events.append(.sensorStalled(seconds: Double(now - lastSampleAt) / 1e9))
            }
            let rateWindow = now - rateWindowStart
            let episodes = pipeline.suspectGyroscopeEpisodes
            let worn = pipeline.isWorn
            statistics.withLock { s in
                s.lastPassNanoseconds = now
                s.samples += UInt64(consumed)
                s.dropped = ring.droppedCount
                s.suspectGyroscopeEpisodes = episodes
                s.worn = worn
                for t in pushed { _ = s.latency.record(UInt64(clamping: max(0, now - t) / 1000)) }
                if consumed > 0 {
                    s.lastSampleNanoseconds = newest
                    s.lastConsumedNanoseconds = now
                }
                if rateWindow >= 2_000_000_000 {
                    s.measuredRate = Double(rateWindowCount) / (Double(rateWindow) / 1e9)
                }
                if case .failed = s.health {
                    // The source ended with an error and nothing restarts it: its reason stays.
                } else if sourceEnded.load(ordering: .acquiring) {
                    s.health = .ended
                } else if stalled {
                    s.health = .stalled(seconds: Double(now - lastSampleAt) / 1e9)
                } else if consumed > 0 {
                    s.health = .streaming
                }
                for case .detection(let e) in events {
                    s.detections += 1
                    s.lastDetection = e
                }
            }
            for t in pushed { metrics.decisionLatency(microseconds: UInt64(clamping: max(0, now - t) / 1000)) }
            if rateWindow >= 2_000_000_000 {
                rateWindowStart = now
                rateWindowCount = 0
            }
            for event in events { output(event) }
        }
    }
}

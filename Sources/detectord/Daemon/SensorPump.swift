import FallDetect
import Foundation
import Synchronization

/// Runs the sensor source on a thread of its own with the ring's producer: samples flow into the
/// ring whatever the rest of the daemon is doing. The thread ends when the source ends or when
/// `stop()` is called.
final class SensorPump: @unchecked Sendable {
    // @unchecked: `producer` is used only by the pump's thread; the rest is immutable or atomic.

    let source: any SensorSource
    private let producer: SampleRing.Producer
    private let detector: DetectorLoop
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let ended: @Sendable (Result<SensorSourceEnd, FallDetectError>) -> Void

    init(source: any SensorSource, ring: SampleRing, detector: DetectorLoop, ended: @escaping @Sendable (Result<SensorSourceEnd, FallDetectError>) -> Void) {
        self.source = source
        producer = ring.makeProducer()
        self.detector = detector
        self.ended = ended
    }

    func start() {
        let thread = Thread { [self] in
            let result: Result<SensorSourceEnd, FallDetectError>
            do throws(FallDetectError) {
                result = .success(try source.run(into: producer, batchWritten: { detector.batchWritten() }, shouldStop: {
                    stopRequested.load(ordering: .relaxed)
                }))
            } catch {
                result = .failure(error)
            }
            ended(result)
            finished.signal()
        }
        thread.name = "sensor"
        thread.start()
    }

    /// Asks the source to stop and waits for its thread (it checks every 50 ms).
    func stop() {
        stopRequested.store(true, ordering: .relaxed)
        finished.wait()
        finished.signal()
    }
}

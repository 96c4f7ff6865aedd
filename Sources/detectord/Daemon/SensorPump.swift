import FallDetect

/// The sensor source with the ring's producer: `run` (on the sensor's `WorkerThread`) lets the
/// source push samples until it ends or is asked to stop, then reports how it ended.
final class SensorPump: @unchecked Sendable {
    // @unchecked: `producer` is used only by the thread that calls `run`; the rest is immutable.

    let source: any SensorSource
    private let producer: SampleRing.Producer
    private let detector: DetectorLoop
    private let ended: @Sendable (Result<SensorSourceEnd, FallDetectError>) -> Void

    init(source: any SensorSource, ring: SampleRing, detector: DetectorLoop, ended: @escaping @Sendable (Result<SensorSourceEnd, FallDetectError>) -> Void) {
        self.source = source
        producer = ring.makeProducer()
        self.detector = detector
        self.ended = ended
    }

    func run(shouldStop: () -> Bool) {
        do throws(FallDetectError) {
            ended(.success(try source.run(into: producer, batchWritten: { detector.batchWritten() }, shouldStop: shouldStop)))
        } catch {
            ended(.failure(error))
        }
    }
}

import FallDetect
import Foundation
import Synchronization

/// Runs a sensor source on a thread of its own into a ring and hands each drained batch to
/// `batch` on the calling thread, until `stop`, `seconds` or the source's end: what `record` and
/// `bench --i2c` need without the whole daemon.
enum SensorThread {
    static func run(
        _ source: any SensorSource, stop: OnceFlag, seconds: Double?, batch: (UnsafeBufferPointer<IMUSample>) -> Void
    ) -> Result<SensorSourceEnd, FallDetectError> {
        let capacity = min(1 << 16, max(256, Int(min(source.sampleRate, 10_000) * 4).nextPowerOfTwo))
        let ring = SampleRing(capacity: capacity)
        let result = Mutex<Result<SensorSourceEnd, FallDetectError>?>(nil)
        let wake = DispatchSemaphore(value: 0)
        let halt = Atomic<Bool>(false)
        let thread = Thread {
            let producer = ring.makeProducer()
            let outcome: Result<SensorSourceEnd, FallDetectError>
            do throws(FallDetectError) {
                outcome = .success(try source.run(into: producer, batchWritten: { wake.signal() }, shouldStop: { halt.load(ordering: .acquiring) }))
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            wake.signal()
        }
        thread.name = "sensor"
        thread.start()
        let consumer = ring.makeConsumer()
        let buffer = UnsafeMutableBufferPointer<IMUSample>.allocate(capacity: 1024)
        defer { buffer.deallocate() }
        let start = MonotonicTime.nowNanoseconds()
        func drain() {
            while true {
                let n = consumer.pop(into: buffer)
                if n == 0 { return }
                batch(UnsafeBufferPointer(rebasing: buffer[0..<n]))
            }
        }
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(100))
            drain()
            if result.withLock({ $0 }) != nil { break }
            let expired = seconds.map { Double(MonotonicTime.nowNanoseconds() - start) / 1e9 >= $0 } ?? false
            if expired || stop.isRaised {
                halt.store(true, ordering: .releasing)
            }
        }
        drain()
        return result.withLock { $0 } ?? .success(.stopped)
    }
}

import Foundation
import ServiceLifecycle
import Synchronization

/// A `Service` around a loop that runs on a thread of its own (the sensor, the detector), never
/// on the cooperative pool: it starts the thread, waits for graceful shutdown, then asks the loop
/// to stop and waits until the thread has ended. The loop checks `shouldStop` often (every
/// 50–100 ms); `wake` cuts a wait short.
final class WorkerThread: Service {
    let name: String
    private let body: @Sendable (_ shouldStop: () -> Bool) -> Void
    private let wake: @Sendable () -> Void
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, wake: @escaping @Sendable () -> Void = {}, body: @escaping @Sendable (_ shouldStop: () -> Bool) -> Void) {
        self.name = name
        self.wake = wake
        self.body = body
    }

    func run() async throws {
        let thread = Thread { [self] in
            body { stopRequested.load(ordering: .relaxed) }
            finished.signal()
        }
        thread.name = name
        thread.start()
        try? await gracefulShutdown()
        stopRequested.store(true, ordering: .relaxed)
        wake()
        finished.wait()
    }
}

import Foundation
import Synchronization

/// Runs a `DetectorLoop` on its own thread until stopped.
final class DetectorThread: Sendable {
    let loop: DetectorLoop
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(loop: DetectorLoop) { self.loop = loop }

    func start() {
        let thread = Thread { [self] in
            loop.run { stopRequested.load(ordering: .relaxed) }
            finished.signal()
        }
        thread.name = "detector"
        thread.start()
    }

    /// Stops after the current pass (at most 100 ms) and waits for the thread.
    func stop() {
        stopRequested.store(true, ordering: .relaxed)
        loop.signalStop()
        finished.wait()
        finished.signal()
    }
}

import Dispatch
import FallDetect
import Synchronization

/// Carries what a sensor source says (a chip found, a gap, a fault) from its thread to the
/// daemon's event stream, which exists only once the daemon starts: notices before then wait
/// here, so none is lost. The sink runs on a queue of its own, in order: the log it writes to can
/// stall (journald on a slow SD card), and the sensor's thread must go on draining the chip.
final class SensorNoticeRelay: Sendable {
    enum Notice: Sendable {
        case text(String)
        case gap(RecordedEvent)
        /// The rate and ranges the chip was set to, each time it is set up.
        case configured(SensorScale)
    }

    private let state = Mutex<(sink: (@Sendable (Notice) -> Void)?, waiting: [Notice])>((nil, []))
    private let queue = DispatchQueue(label: "detectord.sensor-notices")

    init() {}

    func send(_ notice: Notice) {
        // Under the lock, so that a notice sent while `attach` hands over the waiting ones is
        // queued after them.
        state.withLock { s in
            guard let sink = s.sink else { return s.waiting.append(notice) }
            queue.async { sink(notice) }
        }
    }

    /// From now on notices go to `sink`; those that waited go first.
    func attach(_ sink: @escaping @Sendable (Notice) -> Void) {
        state.withLock { s in
            s.sink = sink
            let waiting = s.waiting
            s.waiting.removeAll()
            queue.async { for notice in waiting { sink(notice) } }
        }
    }

    /// Returns once every notice sent so far has reached the sink (tests, shutdown).
    func flush() { queue.sync {} }
}

import FallDetect
import Synchronization

/// Carries what a sensor source says (a chip found, a gap, a fault) from its thread to the
/// daemon's event stream, which exists only once the daemon starts: notices before then wait
/// here, so none is lost.
final class SensorNoticeRelay: Sendable {
    enum Notice: Sendable {
        case text(String)
        case gap(RecordedEvent)
    }

    private let state = Mutex<(sink: (@Sendable (Notice) -> Void)?, waiting: [Notice])>((nil, []))

    init() {}

    func send(_ notice: Notice) {
        let sink = state.withLock { s in
            if s.sink == nil { s.waiting.append(notice) }
            return s.sink
        }
        sink?(notice)
    }

    /// From now on notices go to `sink`; those that waited go first.
    func attach(_ sink: @escaping @Sendable (Notice) -> Void) {
        let waiting = state.withLock { s in
            s.sink = sink
            defer { s.waiting.removeAll() }
            return s.waiting
        }
        for notice in waiting { sink(notice) }
    }
}

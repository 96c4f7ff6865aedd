import FallDetect
import Foundation
import Synchronization
import Testing
@testable import detectord

/// The sensor's notices reach the event stream in order, none lost before the daemon starts, and
/// a stalled sink (journald on a slow card) never holds up the sensor's thread.
@Suite struct SensorNoticeRelayTests {
    final class Sink: Sendable {
        let texts = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let blocking: Bool
        init(blocking: Bool) { self.blocking = blocking }
        func receive(_ notice: SensorNoticeRelay.Notice) {
            if blocking { gate.wait() }
            if case .text(let text) = notice { texts.withLock { $0.append(text) } }
        }
    }

    @Test func noticesBeforeTheSinkWaitAndAllArriveInOrder() {
        let relay = SensorNoticeRelay()
        relay.send(.text("a"))
        relay.send(.text("b"))
        let sink = Sink(blocking: false)
        relay.attach { sink.receive($0) }
        relay.send(.text("c"))
        relay.flush()
        #expect(sink.texts.withLock { $0 } == ["a", "b", "c"])
    }

    @Test func aStalledSinkDoesNotHoldUpTheSender() {
        let relay = SensorNoticeRelay()
        let sink = Sink(blocking: true)
        relay.attach { sink.receive($0) }
        final class Counter: Sendable { let value = Atomic<Int>(0) }
        let counter = Counter()
        let sender = Thread {
            for i in 0..<100 {
                relay.send(.text("\(i)"))
                counter.value.add(1, ordering: .relaxed)
            }
        }
        sender.start()
        // The sink has taken nothing yet; the sender must still have sent everything.
        var waited = 0
        while counter.value.load(ordering: .relaxed) < 100, waited < 200 {
            usleep(10_000)
            waited += 1
        }
        #expect(counter.value.load(ordering: .relaxed) == 100, "the sender went on while the sink was stalled")
        #expect(sink.texts.withLock { $0 }.isEmpty)
        for _ in 0..<100 { sink.gate.signal() }
        relay.flush()
        #expect(sink.texts.withLock { $0 } == (0..<100).map(String.init))
    }
}

import FallDetect
import Foundation
import Logging
import Synchronization
import Testing
@testable import detectord

/// One wall clock for the workflow and the dispatcher, on a real SQLite store.
@Suite struct WallClockTests {
    /// NTP steps the clock an hour forward during a countdown. Whichever service reads the clock
    /// first moves the deadlines, once: the other, reading after it, must not move them again
    /// (each noticing the step by itself, a probe time saved on the new clock was shifted again).
    @Test func aStepMovesThePendingDeadlinesOnceWhoeverReadsFirst() throws {
        let protected = try ProtectedStore("wall-clock")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let offset = Mutex<Int64>(0)
        let clock = WallClock(
            store: store, hub: EventHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })),
            wall: { WorkflowService.utcNow() + offset.withLock { $0 } })
        let start = clock.now()
        try store.apply(.detection(.automaticFall), at: start)
        let hour: Int64 = 3_600_000_000_000
        offset.withLock { $0 = hour }
        let dispatcherNow = clock.now()
        #expect(clock.steps == 1)
        let workflowNow = clock.now()
        #expect(clock.steps == 1, "the second reader sees no step")
        let left = try #require(try store.workflow().countdownRemaining(at: workflowNow))
        let elapsed = Double(workflowNow - hour - start) / 1e9
        #expect(abs(left - (WorkflowSettings().countdown - elapsed)) < 0.5, "\(left) s left, \(elapsed) s after the fall")
        #expect(try store.journal().filter { $0.type == "clock_step" }.count == 1)
        #expect(dispatcherNow <= workflowNow)
    }
}

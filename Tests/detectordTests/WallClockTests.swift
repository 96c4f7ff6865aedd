@testable import FallDetect
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

    /// A step the store cannot take (a full disk) is not lost: readings stay on the old clock,
    /// which the saved deadlines are still on, and the step is applied once the store takes it.
    @Test func aStepTheStoreRefusesIsAppliedOnceItCan() throws {
        let protected = try ProtectedStore("wall-clock-refused")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let offset = Mutex<Int64>(0)
        let hub = EventHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let clock = WallClock(store: store, hub: hub, wall: { WorkflowService.utcNow() + offset.withLock { $0 } }, retrySeconds: 0)
        let start = clock.now()
        try store.apply(.detection(.automaticFall), at: start)
        // The journal refuses every line, as a full disk refuses every write.
        try store.transaction { try $0.db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk full'); END") }
        let hour: Int64 = 3_600_000_000_000
        offset.withLock { $0 = hour }
        let refused = clock.now()
        #expect(clock.steps == 0)
        #expect(refused - start < 60_000_000_000, "still the old clock: \(Double(refused - start) / 1e9) s after the fall")
        for _ in 0..<3 { _ = clock.now() }
        #expect(hub.recentEvents.filter { $0.type == "clock_step" }.count == 1, "refused again and again, said once")
        try store.transaction { try $0.db.execute(sql: "DROP TRIGGER refuse") }
        let taken = clock.now()
        #expect(clock.steps == 1, "applied once the store took it")
        #expect(taken - start > hour)
        let left = try #require(try store.workflow().countdownRemaining(at: taken))
        let elapsed = Double(taken - hour - start) / 1e9
        #expect(abs(left - (WorkflowSettings().countdown - elapsed)) < 0.5, "\(left) s left, \(elapsed) s after the fall")
        #expect(try store.journal().filter { $0.type == "clock_step" }.count == 1)
    }

    /// Stepped again while the first step waits for the store: readings stay on the old clock
    /// (the one the saved deadlines are on), not on the clock between the two steps.
    @Test func aSecondStepWhileTheFirstWaitsStaysOnTheOldClock() throws {
        let protected = try ProtectedStore("wall-clock-twice")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let offset = Mutex<Int64>(0)
        let clock = WallClock(
            store: store, hub: EventHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })),
            wall: { WorkflowService.utcNow() + offset.withLock { $0 } }, retrySeconds: 3600)
        let start = clock.now()
        try store.transaction { try $0.db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk full'); END") }
        let hour: Int64 = 3_600_000_000_000
        offset.withLock { $0 = hour }
        #expect(clock.now() - start < 60_000_000_000)
        offset.withLock { $0 = 3 * hour }
        let twice = clock.now()
        #expect(twice - start < 60_000_000_000, "still the old clock: \(Double(twice - start) / 1e9) s on")
        #expect(clock.steps == 0)
    }
}

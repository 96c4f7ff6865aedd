@testable import FallDetect
import Foundation
import Logging
import Synchronization
import Testing
@testable import detectord

/// One wall clock for the workflow and the dispatcher, on a real SQLite store.
@Suite struct WallClockTests {
    static let hour: Int64 = 3_600_000_000_000

    /// A protected store and a `WallClock` on a wall the test steps; removes its folder when done.
    final class SteppedClock {
        let protected: ProtectedStore
        let hub = EventHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let clock: WallClock
        private let offset: Offset

        final class Offset: Sendable {
            let nanoseconds = Mutex<Int64>(0)
        }

        init(_ name: String, retrySeconds: Double = 5) throws {
            protected = try ProtectedStore(name)
            let offset = Offset()
            self.offset = offset
            clock = WallClock(store: protected.store, hub: hub, wall: { WorkflowService.utcNow() + offset.nanoseconds.withLock { $0 } },
                              retrySeconds: retrySeconds)
        }

        deinit { try? FileManager.default.removeItem(at: protected.directory) }

        var store: WorkflowStore { protected.store }

        /// The wall clock reads `step` ns off the real time from now on.
        func setWall(_ step: Int64) { offset.nanoseconds.withLock { $0 = step } }

        /// The journal refuses every line (or takes them again), as a full disk refuses every write.
        func refuseWrites(_ refused: Bool) throws {
            let sql = refused ? "CREATE TRIGGER refuse BEFORE INSERT ON journal BEGIN SELECT RAISE(ABORT, 'disk full'); END" : "DROP TRIGGER refuse"
            try store.transaction { try $0.db.execute(sql: sql) }
        }
    }

    /// NTP steps the clock an hour forward during a countdown. Whichever service reads the clock
    /// first moves the deadlines, once: the other, reading after it, must not move them again
    /// (each noticing the step by itself, a probe time saved on the new clock was shifted again).
    @Test func aStepMovesThePendingDeadlinesOnceWhoeverReadsFirst() throws {
        let rig = try SteppedClock("wall-clock")
        let (store, clock) = (rig.store, rig.clock)
        let start = clock.now()
        try store.apply(.detection(.automaticFall), at: start)
        rig.setWall(Self.hour)
        let dispatcherNow = clock.now()
        #expect(clock.steps == 1)
        let workflowNow = clock.now()
        #expect(clock.steps == 1, "the second reader sees no step")
        let left = try #require(try store.workflow().countdownRemaining(at: workflowNow))
        let elapsed = Double(workflowNow - Self.hour - start) / 1e9
        #expect(abs(left - (WorkflowSettings().countdown - elapsed)) < 0.5, "\(left) s left, \(elapsed) s after the fall")
        #expect(try store.journal().filter { $0.type == "clock_step" }.count == 1)
        #expect(dispatcherNow <= workflowNow)
    }

    /// A step the store cannot take (a full disk) is not lost: readings stay on the old clock,
    /// which the saved deadlines are still on, and the step is applied once the store takes it.
    @Test func aStepTheStoreRefusesIsAppliedOnceItCan() throws {
        let rig = try SteppedClock("wall-clock-refused", retrySeconds: 0)
        let (store, clock) = (rig.store, rig.clock)
        let start = clock.now()
        try store.apply(.detection(.automaticFall), at: start)
        try rig.refuseWrites(true)
        rig.setWall(Self.hour)
        let refused = clock.now()
        #expect(clock.steps == 0)
        #expect(refused - start < 60_000_000_000, "still the old clock: \(Double(refused - start) / 1e9) s after the fall")
        for _ in 0..<3 { _ = clock.now() }
        #expect(rig.hub.recentEvents.filter { $0.type == "clock_step" }.count == 1, "refused again and again, said once")
        try rig.refuseWrites(false)
        let taken = clock.now()
        #expect(clock.steps == 1, "applied once the store took it")
        #expect(taken - start > Self.hour)
        let left = try #require(try store.workflow().countdownRemaining(at: taken))
        let elapsed = Double(taken - Self.hour - start) / 1e9
        #expect(abs(left - (WorkflowSettings().countdown - elapsed)) < 0.5, "\(left) s left, \(elapsed) s after the fall")
        #expect(try store.journal().filter { $0.type == "clock_step" }.count == 1)
    }

    /// Stepped again while the first step waits for the store: readings stay on the old clock
    /// (the one the saved deadlines are on), not on the clock between the two steps.
    @Test func aSecondStepWhileTheFirstWaitsStaysOnTheOldClock() throws {
        let rig = try SteppedClock("wall-clock-twice", retrySeconds: 3600)
        let clock = rig.clock
        let start = clock.now()
        try rig.refuseWrites(true)
        rig.setWall(Self.hour)
        #expect(clock.now() - start < 60_000_000_000)
        rig.setWall(3 * Self.hour)
        let twice = clock.now()
        #expect(twice - start < 60_000_000_000, "still the old clock: \(Double(twice - start) / 1e9) s on")
        #expect(clock.steps == 0)
    }
}

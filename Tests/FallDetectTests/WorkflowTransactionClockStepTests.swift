import Foundation
import Testing
@testable import FallDetect

/// A step of the wall clock in a real SQLite store: every pending deadline moves with it.
@Suite struct WorkflowTransactionClockStepTests {
    let s: Int64 = 1_000_000_000
    let hour: Int64 = 3_600_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("clock-step")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try WorkflowStore(path: dir + "/detectord.sqlite")
        try store.saveContact(try Contact(name: "Charles", phone: "+447700900456"))
        try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
        try body(store)
    }

    @Test func anHourForwardLeavesTheCountdownItsSeconds() throws {
        try withStore { store in
            try store.apply(.detection(.automaticFall), at: 10 * s)
            let left = try #require(try store.workflow().countdownRemaining(at: 20 * s))
            try store.transaction { try $0.shiftPendingTimes(by: hour, at: hour + 20 * s) }
            #expect(try store.workflow().countdownRemaining(at: hour + 20 * s) == left)
            let actions = try store.apply(.tick, at: hour + 21 * s)
            #expect(!actions.contains { if case .transition = $0 { true } else { false } }, "\(actions)")
            #expect(try store.journal().last?.payload.contains("+3600.0 s") == true)
        }
    }

    @Test func anHourBackDoesNotPutARetryOffByAnHour() throws {
        try withStore { store in
            try store.enqueue(.alert, at: 100 * s)
            let message = try #require(try store.due(at: 100 * s).first)
            try store.failed(message, retryAfter: 10, at: 100 * s)
            try store.transaction { try $0.shiftPendingTimes(by: -hour, at: 105 * s - hour) }
            #expect(try !store.due(at: 109 * s - hour).contains { $0.id == message.id }, "the retry keeps its 10 s")
            #expect(try store.due(at: 110 * s - hour).contains { $0.id == message.id })
        }
    }

    /// A failed try's time moves with the clock: the probe order compares it with times on the
    /// new clock (`DeliveryOrder`), and left behind it would pin or starve that message.
    @Test func aFailedTrysTimeMovesWithTheClock() throws {
        try withStore { store in
            try store.enqueue(.alert, at: 100 * s)
            let message = try #require(try store.due(at: 100 * s).first)
            try store.transaction { try $0.recordFailedAttempt(message, delay: 10, reason: "no route", at: 100 * s) }
            try store.transaction { try $0.shiftPendingTimes(by: -hour, at: 105 * s - hour) }
            let pending = try #require(try store.snapshot { try $0.pendingMessages() }.first { $0.message.id == message.id })
            #expect(pending.lastAttemptAt == 100 * s - hour)
            // An SMS the network accepted, waiting for its report, records its try as well: kept at
            // the old failure's time, it would win every probe of a failing channel.
            try store.failed(message, retryAfter: 20, at: 130 * s - hour)
            let polled = try #require(try store.snapshot { try $0.pendingMessages() }.first { $0.message.id == message.id })
            #expect(polled.lastAttemptAt == 130 * s - hour)
        }
    }

    @Test func anAbandonedMessageStaysAbandonedWhicheverWayTheClockGoes() throws {
        try withStore { store in
            try store.enqueue(.alert, at: 100 * s)
            let messages = try store.due(at: 100 * s)
            try #require(!messages.isEmpty)
            for message in messages { try store.abandon(message, reason: "refused for good", at: 101 * s) }
            for step in [-hour, hour, -hour] { try store.transaction { try $0.shiftPendingTimes(by: step, at: 102 * s) } }
            #expect(try store.transaction { try $0.waiting() }.isEmpty, "abandoned, not pending again")
            for message in messages { try store.transaction { try $0.markChannelUp(message.channel, at: 103 * s) } }
            #expect(try store.due(at: 104 * s).isEmpty, "a channel back up does not send them")
        }
    }

    /// Restarted on a clock behind what the database recorded (a Pi without a battery-backed
    /// clock, before NTP): the countdown and a retry keep the time they had left, NTP's step later
    /// keeps them, and a second restart before NTP does not move them again.
    @Test func aClockBehindAtStartKeepsTheTimeLeftThroughTheLaterStep() throws {
        try withStore { store in
            let day = 24 * hour
            try store.apply(.detection(.automaticFall), at: day)
            let left = try #require(try store.workflow().countdownRemaining(at: day + 5 * s))
            try store.enqueue(.lowBattery, at: day + 5 * s)
            let message = try #require(try store.due(at: day + 5 * s).first)
            try store.failed(message, retryAfter: 30, at: day + 5 * s)

            // Booted with the clock a day behind, 5 s after the last record.
            let step = try store.transaction { try $0.alignWithRecordedTime(at: 0) }
            #expect(step == -(day + 5 * s))
            #expect(try store.workflow().countdownRemaining(at: 0) == left)
            #expect(try !store.due(at: 29 * s).contains { $0.id == message.id } && store.due(at: 30 * s).contains { $0.id == message.id })
            #expect(try store.journal().last?.type == "clock_behind")

            #expect(try store.transaction { try $0.alignWithRecordedTime(at: 2 * s) } == nil, "restarted again before NTP: nothing to move")
            try store.transaction { try $0.shiftPendingTimes(by: day, at: day + 3 * s) }
            #expect(try store.workflow().countdownRemaining(at: day + 3 * s) == left - 3)
            #expect(try store.transaction { try $0.alignWithRecordedTime(at: day + 4 * s) } == nil, "after NTP: nothing to move")
        }
    }

    /// A failing channel's probes journal only its first failure; the last probe's time still
    /// counts as recorded, or a restart on a clock behind would leave the next probe (and the
    /// alert it would send) hours away.
    @Test func aClockBehindAtStartCountsTheLastProbe() throws {
        try withStore { store in
            try store.enqueue(.lowBattery, at: 100 * s)
            let message = try #require(try store.due(at: 100 * s).first)
            // Probed every 15 min for three hours, each probe failing.
            for probe in Int64(0)...12 {
                try store.transaction { try $0.recordFailedAttempt(message, delay: 15, reason: "no route", at: 100 * s + probe * 900 * s) }
            }
            let last = 100 * s + 12 * 900 * s
            // Power cut; booted with the clock 10 min after the first failure.
            let boot = 700 * s
            #expect(try store.transaction { try $0.alignWithRecordedTime(at: boot) } == boot - last)
            let probe = try #require(try store.channelHealth().first { $0.channel == message.channel })
            #expect(probe.nextProbeAt == boot + 15 * s, "the next probe is 15 s away, not hours")
        }
    }

    @Test func aClockAheadOfTheRecordsAtStartMovesNothing() throws {
        try withStore { store in
            try store.apply(.detection(.automaticFall), at: 100 * s)
            let before = try store.workflow()
            #expect(try store.transaction { try $0.alignWithRecordedTime(at: 105 * s) } == nil)
            #expect(try store.workflow().countdownRemaining(at: 105 * s) == before.countdownRemaining(at: 105 * s))
            #expect(try !store.journal().contains { $0.type == "clock_behind" })
        }
    }

    @Test func conditionsKeepHowLongTheyHaveLasted() throws {
        try withStore { store in
            try store.transaction { try $0.recordWear(isWorn: false, since: 5 * s, at: 45 * s) }
            try store.transaction { try $0.shiftPendingTimes(by: 24 * hour, at: 24 * hour + 50 * s) }
            #expect(try store.transaction { try $0.notWornSince() } == 24 * hour + 5 * s)
            #expect(try store.transaction { try $0.remindNotWorn(afterSeconds: 60, at: 24 * hour + 50 * s) } == false, "45 s off, not a day")
        }
    }

    /// A fix taken on fake-hwclock's time, three days behind, then NTP: the position's time is
    /// told to contacts as when the wearer was there, and its age decides its deletion.
    @Test func aPositionKeepsItsAgeThroughAStep() throws {
        try withStore { store in
            try store.transaction { try $0.recordPosition(StoredPosition(latitude: 38.7, longitude: -9.1), at: 100 * s) }
            try store.transaction { try $0.shiftPendingTimes(by: 72 * hour, at: 72 * hour + 160 * s) }
            #expect(try store.snapshot { try $0.lastPosition()?.recordedAt } == 72 * hour + 100 * s)
            #expect(try store.snapshot { try $0.positionHistory().map(\.recordedAt) } == [72 * hour + 100 * s])
            let pruned = try store.transaction { try $0.prunePositions(recordedBefore: 72 * hour + 160 * s - 24 * hour, at: 72 * hour + 160 * s) }
            #expect(pruned == 0, "a minute old, not three days")
        }
    }

    /// A position from before a power-off was on that boot's clock: NTP setting this boot's
    /// clock three days on must not make it look like today's.
    @Test func aPositionFromAnotherBootStaysWhereItWas() throws {
        try withStore { store in
            try store.transaction { tx in
                try tx.setSetting("lastPosition", StoredPosition(latitude: 38.7, longitude: -9.1, recordedAt: 100 * s, boot: "an earlier boot"))
                try tx.setSetting("positionHistory", [StoredPosition(latitude: 38.7, longitude: -9.1, recordedAt: 100 * s, boot: "an earlier boot")])
            }
            try store.transaction { try $0.shiftPendingTimes(by: 72 * hour, at: 72 * hour + 160 * s) }
            #expect(try store.snapshot { try $0.lastPosition()?.recordedAt } == 100 * s)
            #expect(try store.snapshot { try $0.positionHistory().map(\.recordedAt) } == [100 * s])
        }
    }

    /// Booted on fake-hwclock's time, a fall's alert retries (a phone off) with only a position
    /// from before the power-off; NTP then sets the clock three days on. The alert is not three
    /// days old: the position it needs stays for the retention from the step.
    @Test func aMessageCreatedBeforeAStepStillHoldsItsPosition() throws {
        try withStore { store in
            try store.transaction { try $0.setSetting("lastPosition", StoredPosition(latitude: 38.7, longitude: -9.1, recordedAt: 0, boot: "an earlier boot")) }
            try store.apply(.sos(fromKeychain: false), at: 10 * s)
            try store.apply(.tick, at: 40 * s)
            try store.apply(.disarm(.correct), at: 50 * s)
            try store.apply(.resume, at: 51 * s)
            #expect(try store.workflow().state == .noEmergency)
            let stepped = 72 * hour + 60 * s
            try store.transaction { try $0.shiftPendingTimes(by: 72 * hour, at: stepped) }
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: stepped - 24 * hour, at: stepped) } == 0)
            let dayAfter = stepped + 25 * hour
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: dayAfter - 24 * hour, at: dayAfter) } == 1)
        }
    }

    @Test func aPINLockoutKeepsItsLength() throws {
        try withStore { store in
            let hash = try PINHasher.hash("2468")
            var lock = PINLock()
            for _ in 0..<3 { _ = lock.check("0000", pinHash: hash, duressHash: nil, at: 100 * s) }
            #expect(lock.check("2468", pinHash: hash, duressHash: nil, at: 101 * s) == .lockedOut(seconds: 29))
            try store.setSetting("pinLock", lock)
            try store.transaction { try $0.shiftPendingTimes(by: -hour, at: 101 * s - hour) }
            let shifted = try #require(try store.setting("pinLock", as: PINLock.self))
            var copy = shifted
            #expect(copy.check("2468", pinHash: hash, duressHash: nil, at: 101 * s - hour) == .lockedOut(seconds: 29), "not an hour and 29 s")
        }
    }
}

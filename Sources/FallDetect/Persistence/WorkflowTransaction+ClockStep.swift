import Foundation
import GRDB

extension WorkflowTransaction {
    /// The wall clock was stepped by `step` ns (NTP setting the time after boot on a Pi without a
    /// battery-backed clock, or a person setting it): every pending deadline moves with it, so a
    /// countdown keeps its seconds, a retry or probe is not put off by an hour nor all fired at
    /// once, tracking keeps its 30 minutes and a PIN lockout its length. What already happened
    /// (journal, incidents, messages' creation) keeps the time it was recorded with. Positions
    /// taken since this boot move too: their time is told to contacts as when the wearer was
    /// there ("at 17:00 on 19 Nov", three days off after a boot on fake-hwclock's time) and judges
    /// when they are deleted. One from before a power-off was on that boot's clock, and stays.
    public func shiftPendingTimes(by step: Int64, at now: Int64) throws {
        try movePendingTimes(by: step)
        try note("clock_step", "the wall clock was set by \(Self.seconds(step)); pending deadlines moved with it", at: now)
        try markClockFrame(at: now)
    }

    /// At start, before anything is recorded: a wall clock that reads earlier than the newest time
    /// the database holds is behind (a Pi without a battery-backed clock boots with fake-hwclock's
    /// or systemd's time, and NTP may be hours away, or never come when only SMS works). Every
    /// saved deadline would be that much further off, and a later NTP step would move it further
    /// still: a countdown or a retry would wait hours or months. They are moved back by the lag the
    /// database shows, as if no time passed while the device was off. Returns that step, or nil.
    public func alignWithRecordedTime(at now: Int64) throws -> Int64? {
        guard let newest = try newestRecordedTime(), newest > now else { return nil }
        let step = now &- newest
        try movePendingTimes(by: step)
        try note("clock_behind", "the wall clock reads \(Self.seconds(-step)) before the last time recorded; pending deadlines moved back with it", at: now)
        try markClockFrame(at: now)
        return step
    }

    /// Where the current clock's times begin: journal lines after `journalID` were written on it,
    /// and `time` is a time on it. Lines before a step are on another clock and say nothing about
    /// this one.
    struct ClockFrame: Codable {
        var journalID: Int64
        var time: Int64
    }

    /// The journal's newest line on the current clock, and the last try of a message still
    /// waiting: a failing channel's probes journal only the first failure, so hours of probes
    /// would otherwise not count, and a restart on a clock behind would leave the next probe
    /// those hours away. Waiting messages' times move with every step, so they are on this clock.
    private func newestRecordedTime() throws -> Int64? {
        let frame = try setting("clockFrame", as: ClockFrame.self)
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(t) FROM journal WHERE id > ?", arguments: [frame?.journalID ?? 0])
        let attempted = try Int64.fetchOne(
            db, sql: "SELECT MAX(lastAttemptAt) FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ?",
            arguments: [Int64.max])
        return [frame?.time, newest, attempted].compactMap { $0 }.max()
    }

    private func markClockFrame(at now: Int64) throws {
        let id = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM journal") ?? 0
        try setSetting("clockFrame", ClockFrame(journalID: id, time: now))
    }

    private func movePendingTimes(by step: Int64) throws {
        var machine = try workflow()
        machine.shiftPendingTimes(by: step)
        try setSetting("workflow", machine)
        // An abandoned message waits at Int64.max: moved, it would be pending again (and sent
        // after the all clear that abandoned it) or overflow.
        // The last attempt's time moves too: the probe goes to the message waiting longest.
        try db.execute(
            sql: """
                UPDATE outbox SET nextAttemptAt = nextAttemptAt + ?, lastAttemptAt = lastAttemptAt + ?
                WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ?
                """,
            arguments: [step, step, Int64.max])
        try db.execute(sql: "UPDATE channelHealth SET failingSince = failingSince + ?, nextProbeAt = nextProbeAt + ?", arguments: [step, step])
        // How long the device has been off the body, the sensor faulty, the keychain away.
        for condition in ["notWorn", "sensorFault", "keychainLost"] {
            if let since = try conditionSince(condition) { try setSetting("\(condition)Since", since &+ step) }
        }
        for key in ["pinLock", Self.setupPINLock] {
            if var lock = try setting(key, as: PINLock.self) {
                lock.shiftLockout(by: step)
                try setSetting(key, lock)
            }
        }
        func moved(_ position: StoredPosition) -> StoredPosition {
            guard position.boot == BootIdentity.current else { return position }
            var position = position
            position.recordedAt = position.recordedAt.map { $0 &+ step }
            return position
        }
        if let last = try lastPosition() { try setSetting("lastPosition", moved(last)) }
        let history = try positionHistory()
        if !history.isEmpty { try setSetting("positionHistory", history.map(moved)) }
        if let atEvent = try eventPositions() { try setSetting(Self.eventPositionsKey, atEvent.map(moved)) }
    }

    /// "+3600.0 s", "-86400.0 s".
    public static func seconds(_ step: Int64) -> String {
        (step >= 0 ? "+" : "") + String(format: "%.1f s", Double(step) / 1e9)
    }
}

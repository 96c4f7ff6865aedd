import Foundation
import GRDB

extension WorkflowTransaction {
    /// The wall clock was stepped by `step` ns (NTP setting the time after boot on a Pi without a
    /// battery-backed clock, or a person setting it): every pending deadline moves with it, so a
    /// countdown keeps its seconds, a retry or probe is not put off by an hour nor all fired at
    /// once, tracking keeps its 30 minutes and a PIN lockout its length. What already happened
    /// (journal, incidents, positions, messages' creation) keeps the time it was recorded with.
    public func shiftPendingTimes(by step: Int64, at now: Int64) throws {
        var machine = try workflow()
        machine.shiftPendingTimes(by: step)
        try setSetting("workflow", machine)
        // An abandoned message waits at Int64.max: moved, it would be pending again (and sent
        // after the all clear that abandoned it) or overflow.
        try db.execute(
            sql: "UPDATE outbox SET nextAttemptAt = nextAttemptAt + ? WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ?",
            arguments: [step, Int64.max])
        try db.execute(sql: "UPDATE channelHealth SET failingSince = failingSince + ?, nextProbeAt = nextProbeAt + ?", arguments: [step, step])
        // How long the device has been off the body, the sensor faulty, the keychain away.
        for condition in ["notWorn", "sensorFault", "keychainLost"] {
            if let since = try conditionSince(condition) { try setSetting("\(condition)Since", since &+ step) }
        }
        if var lock = try setting("pinLock", as: PINLock.self) {
            lock.shiftLockout(by: step)
            try setSetting("pinLock", lock)
        }
        try note("clock_step", "the wall clock was set by \(Self.seconds(step)); pending deadlines moved with it", at: now)
    }

    /// "+3600.0 s", "-86400.0 s".
    public static func seconds(_ step: Int64) -> String {
        (step >= 0 ? "+" : "") + String(format: "%.1f s", Double(step) / 1e9)
    }
}

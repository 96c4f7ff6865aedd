import GRDB

/// What `OutboxDispatcher` reads and records. Each method runs inside the caller's transaction, so
/// a decision and its journal line commit together and survive a restart.
extension WorkflowTransaction {
    // MARK: Channel progress

    /// What the message's channel saved of it on earlier attempts (`ChannelProgress`).
    public func channelProgress(of message: OutboxMessage) throws -> String? {
        try String.fetchOne(db, sql: "SELECT channelProgress FROM outbox WHERE id = ?", arguments: [message.id])
    }

    /// Only while the message may still be sent: a channel still busy with a message the all
    /// clear abandoned meanwhile must not leave its text (and position) behind for good.
    public func saveChannelProgress(_ progress: String, of message: OutboxMessage) throws {
        try db.execute(
            sql: "UPDATE outbox SET channelProgress = ? WHERE id = ? AND deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ?",
            arguments: [progress, message.id, Int64.max])
    }

    // MARK: Positions

    /// A fix from the receiver: recorded, and handed to the workflow (tracking), unless the last
    /// position outweighs it (`StoredPosition.outweighs`). What the daemon and a drill both do.
    /// A poor fix within its error (and the last position's) of the last position is recorded,
    /// as the last known, but is no move: indoors, poor fixes wandering hundreds of metres around
    /// a wearer lying still would each pass the tracking distance, and every contact would get a
    /// location update a minute for the whole tracking. The periodic update still tells it.
    public func recordFix(_ position: StoredPosition, at now: Int64) throws -> [WorkflowAction] {
        let last = try lastPosition()
        if let last, last.outweighs(position, at: now) { return [] }
        try recordPosition(position, at: now)
        if let last, let error = position.accuracy, error > StoredPosition.poorAccuracy,
           EmergencyWorkflow.distance(.init(latitude: last.latitude, longitude: last.longitude),
                                      .init(latitude: position.latitude, longitude: position.longitude)) < error + (last.accuracy ?? 0) {
            return []
        }
        return try apply(.position(latitude: position.latitude, longitude: position.longitude), at: now)
    }

    /// Records the wearer's position: the latest, and the three latest (newest first) that the
    /// payload's direction of travel is built from.
    public func recordPosition(_ position: StoredPosition, at now: Int64) throws {
        var position = position
        position.recordedAt = now
        position.boot = BootIdentity.current
        try setSetting("lastPosition", position)
        let history = try positionHistory()
        try setSetting("positionHistory", Array(([position] + history).prefix(3)))
    }

    /// When what `message` tells of happened, for its payload: when it was queued (the alert when
    /// the countdown ended, an update when the wearer moved), not when a retry finally sends it;
    /// a sensor fault's start. A message queued before the clock was last set has that time on
    /// another clock (fake-hwclock's, hours or days off): then `now`, the only time known right.
    public func eventTime(of message: OutboxMessage, at now: Int64) throws -> Int64 {
        if message.kind == MessageKind.sensorFault.rawValue, let since = try sensorFaultSince() { return since }
        guard let created = try Int64.fetchOne(db, sql: "SELECT createdAt FROM outbox WHERE id = ?", arguments: [message.id]) else { return now }
        let frame = try setting("clockFrame", as: ClockFrame.self)?.time ?? .min
        return created >= frame ? created : now
    }

    /// Deletes the positions recorded before `cutoff` (and those without a time), unless an
    /// emergency is under way or one of its messages is still on its way (resumed while an SMS
    /// retries): they still need the last known position, however old. Not for ever: a message
    /// that has waited the whole retention (a phone off for days, a webhook failing) yields to
    /// it, and a test's never holds it. The workflow's own copy goes with the last one. Returns
    /// how many were deleted; a deletion is journalled without the coordinates.
    @discardableResult
    public func prunePositions(recordedBefore cutoff: Int64, at now: Int64) throws -> Int {
        var machine = try workflow()
        guard machine.state == .noEmergency else { return 0 }
        let emergencyKinds = Set(MessageKind.emergency.map(\.rawValue))
        // A message created before the clock was last set has an age on another clock (created
        // on fake-hwclock's time, it looks days old after NTP): it counts from the setting.
        let frame = try setting("clockFrame", as: ClockFrame.self)?.time ?? .min
        let owed = try pendingMessages().contains { pending in
            emergencyKinds.contains(pending.message.kind) && !pending.message.isTest && max(pending.createdAt, frame) >= cutoff
        }
        guard !owed else { return 0 }
        func expired(_ p: StoredPosition) -> Bool { (p.recordedAt ?? .min) < cutoff }
        var deleted = 0
        if let last = try lastPosition(), expired(last) {
            try db.execute(sql: "DELETE FROM setting WHERE key = 'lastPosition'")
            machine.forgetPositions()
            try setSetting("workflow", machine)
            deleted += 1
        }
        let history = try positionHistory()
        let kept = history.filter { !expired($0) }
        if kept.count != history.count {
            if kept.isEmpty {
                try db.execute(sql: "DELETE FROM setting WHERE key = 'positionHistory'")
            } else {
                try setSetting("positionHistory", kept)
            }
            deleted += history.count - kept.count
        }
        if deleted > 0 { try note("positions", "deleted \(deleted) recorded before \(Self.isoTime(cutoff))", at: now) }
        return deleted
    }

    public func lastPosition() throws -> StoredPosition? { try setting("lastPosition", as: StoredPosition.self) }

    /// Newest first, at most three.
    public func positionHistory() throws -> [StoredPosition] { try setting("positionHistory", as: [StoredPosition].self) ?? [] }

    static let eventPositionsKey = "eventPositions"

    /// The position history when the emergency began (its countdown started), newest first: the
    /// alert's speed and direction of travel are the wearer's before the event. Built at send
    /// time from the newest fixes, a crash at 30 km/h told its receiver 0 m/s after two minutes
    /// of countdown at rest. Kept until protection resumes.
    public func eventPositions() throws -> [StoredPosition]? { try setting(Self.eventPositionsKey, as: [StoredPosition].self) }

    func keepEventPositions() throws { try setSetting(Self.eventPositionsKey, try positionHistory()) }

    // MARK: Channel health

    public func channelHealth() throws -> [ChannelHealth] {
        try ChannelHealth.fetchAll(db, sql: "SELECT channel, failingSince, nextProbeAt, failures, isDown FROM channelHealth ORDER BY channel")
    }

    /// The caller says the channel cannot work now (no network): its attempts fail without being
    /// made until `markChannelUp`, at the probe cadence.
    public func markChannelDown(_ channel: String, at now: Int64) throws {
        let wasDown = try Bool.fetchOne(db, sql: "SELECT isDown FROM channelHealth WHERE channel = ?", arguments: [channel]) ?? false
        try db.execute(
            sql: """
                INSERT INTO channelHealth(channel, failingSince, nextProbeAt, failures, isDown) VALUES (?, ?, ?, 0, 1)
                ON CONFLICT(channel) DO UPDATE SET isDown = 1
                """,
            arguments: [channel, now, now])
        if !wasDown { try note("channel", "\(channel)|down", at: now) }
    }

    /// The channel works again (a delivery went through, or the caller says so): everything waiting
    /// on it is due now.
    public func markChannelUp(_ channel: String, at now: Int64) throws {
        try db.execute(sql: "DELETE FROM channelHealth WHERE channel = ?", arguments: [channel])
        guard db.changesCount == 1 else { return }
        // Rows scheduled for later (`failed(_:retryAfter:at:)`, or a database from before per-channel
        // backoff) are due now too. Only on a recovery: on a healthy channel a row scheduled later
        // awaits its confirmation (an SMS's status report), and asking again at every delivery
        // would hold the modem for nothing.
        try db.execute(
            sql: "UPDATE outbox SET nextAttemptAt = ? WHERE channel = ? AND deliveredAt IS NULL AND nextAttemptAt > ? AND nextAttemptAt < ?",
            arguments: [now, channel, now, Int64.max])
        try note("channel", "\(channel)|up", at: now)
    }

    /// A transient failure (or an attempt on a channel marked down): the message counts the
    /// attempt, the channel waits `delay` seconds before its next probe.
    func recordFailedAttempt(_ message: OutboxMessage, delay: Double, reason: String, at now: Int64) throws {
        try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, lastAttemptAt = ? WHERE id = ?", arguments: [now, message.id])
        let next = now + Int64((delay * 1e9).rounded())
        let known = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM channelHealth WHERE channel = ?)", arguments: [message.channel]) ?? false
        try db.execute(
            sql: """
                INSERT INTO channelHealth(channel, failingSince, nextProbeAt, failures, isDown) VALUES (?, ?, ?, 1, 0)
                ON CONFLICT(channel) DO UPDATE SET nextProbeAt = excluded.nextProbeAt, failures = failures + 1
                """,
            arguments: [message.channel, now, next])
        if !known { try note("channel", "\(message.channel)|failing: \(reason)", at: now) }
        try attemptEndedUndelivered(message, at: now)
    }

    /// A confirmed delivery: recorded once, the channel is healthy again, and the state machine
    /// hears of it.
    func recordDelivery(_ message: OutboxMessage, at now: Int64) throws -> [WorkflowAction] {
        try db.execute(sql: "UPDATE outbox SET lastAttemptAt = ? WHERE id = ?", arguments: [now, message.id])
        let actions = try delivered(message, at: now)
        try markChannelUp(message.channel, at: now)
        return actions
    }

    /// Undelivered, unabandoned, unsuperseded messages, alerts first, then by creation.
    /// The newest outbox row's id (0 when empty): ids never move with the clock.
    func lastOutboxID() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM outbox") ?? 0
    }

    func pendingMessages() throws -> [PendingMessage] {
        try PendingMessage.fetchAll(
            db,
            sql: """
                SELECT id, idempotencyKey, kind, channel, recipient, attempts, test, concealed, priority, createdAt, nextAttemptAt, lastAttemptAt
                FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ? ORDER BY priority, id
                """,
            arguments: [Int64.max])
    }

    /// An undelivered follow-up (a location update, a keychain repeat) a newer one replaced: never sent.
    func supersede(_ old: OutboxMessage, by newer: OutboxMessage, at now: Int64) throws {
        try db.execute(sql: "UPDATE outbox SET supersededAt = ?, channelProgress = NULL WHERE id = ? AND deliveredAt IS NULL", arguments: [now, old.id])
        try note(old.isConcealed ? "concealed" : "superseded", "\(old.idempotencyKey)|by \(newer.idempotencyKey)", at: now)
    }
}

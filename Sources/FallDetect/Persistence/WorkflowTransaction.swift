import Foundation
import GRDB

/// Everything one atomic change to the workflow database may do. A `WorkflowStore.transaction`
/// hands one out; all it writes commits together or not at all, which is what lets a process
/// killed at any instant restart exactly where it was.
public struct WorkflowTransaction {
    let db: Database

    /// The local copy every message leaves in the console log; it reaches no one, so its delivery
    /// never counts as the emergency having been sent.
    static let localLog = (channel: "console", address: "log")

    // MARK: Settings

    /// A JSON-encoded value stored under `key`.
    public func setting<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) else { return nil }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    public func setSetting<T: Encodable>(_ key: String, _ value: T) throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, text])
    }

    // MARK: Contacts

    public func contacts() throws -> [Contact] {
        try Contact.fetchAll(db, sql: "SELECT name, phone, channel FROM contact ORDER BY id")
    }

    /// The contacts a message goes to. A stored row that no longer reads (edited by hand, written
    /// by a broken version) is skipped and journalled: one bad row must not leave everyone untold.
    func readableContacts(at now: Int64) throws -> [Contact] {
        var readable: [Contact] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, name, phone, channel FROM contact ORDER BY id") {
            do {
                readable.append(try Contact(row: row))
            } catch {
                let id: Int64 = row["id"]
                try note("contact_unreadable", "contact \(id): \(error); not told", at: now)
            }
        }
        return readable
    }

    /// Adds or replaces (by phone number) a contact, at most `limit` of them. Once a PIN is set, set-up
    /// is complete and changing who gets told needs the PIN, so nobody can quietly remove a guardian.
    public func saveContact(_ contact: Contact, pin: String? = nil, limit: Int = 5, at now: Int64 = 0) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM contact WHERE phone = ?)", arguments: [contact.phone.e164]) ?? false
        try Self.require(setUp(.saveContact(contact, replacing: exists ? contact.phone : nil, limit: limit), pin: pin, at: now))
    }

    /// Writes a contact, replacing the one with the same number; no PIN check (callers decide).
    func upsert(_ contact: Contact) throws {
        try db.execute(
            sql: "INSERT INTO contact(name, phone, channel) VALUES (?, ?, ?) ON CONFLICT(phone) DO UPDATE SET name = excluded.name, channel = excluded.channel",
            arguments: [contact.name, contact.phone.e164, contact.channel])
    }

    public func removeContact(phone: PhoneNumber, pin: String? = nil, at now: Int64 = 0) throws {
        try Self.require(setUp(.removeContact(phone), pin: pin, at: now))
    }

    // MARK: The state machine

    public func workflow() throws -> EmergencyWorkflow {
        try setting("workflow", as: EmergencyWorkflow.self) ?? EmergencyWorkflow()
    }

    /// Runs one input through the state machine; journal lines and outbox rows for what it causes
    /// are written with the new snapshot.
    @discardableResult
    public func apply(_ input: WorkflowInput, at now: Int64) throws -> [WorkflowAction] {
        let before = try workflow()
        var machine = before
        let actions = machine.handle(input, at: now)
        for action in actions {
            try journal(action, at: now)
            // A test's messages say so; the emergency the duress PIN hides is never a test.
            if case .send(let kind) = action.revealed {
                let isTest = !action.isConcealed && (before.trigger == .test || machine.trigger == .test)
                try queue(kind, at: now, concealed: action.isConcealed, isTest: isTest)
            }
            // The incidents are what the page's history lists: the shown steps only.
            if case .transition(_, let to, let reason) = action { try recordIncident(to, reason: reason, trigger: machine.trigger, at: now) }
            // A real emergency begins: a test's messages still waiting would arrive saying "test"
            // in the middle of it, and the first delivered would be taken for its alert's.
            if case .transition(_, .alertCountdown, _) = action, machine.trigger != .test { try abandonTestMessages(at: now) }
        }
        if let end = machine.trackingEndsAt, end != before.trackingEndsAt {
            try note(machine.underDuress ? "concealed" : "tracking", "until \(Self.isoTime(end))", at: now)
        }
        // Most ticks change nothing; writing nothing then keeps them free of disk syncs.
        if machine != before { try setSetting("workflow", machine) }
        return actions
    }

    /// Rows written so far in this connection: lets a caller tell whether a step wrote anything.
    public var changesSoFar: Int { db.totalChangesCount }

    /// Opens an incident when a countdown starts, stamps when it was sent, and closes it with its
    /// outcome when the emergency ends or protection resumes.
    private func recordIncident(_ state: EmergencyState, reason: String, trigger: EmergencyTrigger?, at now: Int64) throws {
        switch state {
        case .alertCountdown:
            try db.execute(
                sql: "INSERT INTO incident(trigger, startedAt, outboxBefore) VALUES (?, ?, (SELECT COALESCE(MAX(id), 0) FROM outbox))",
                arguments: [trigger?.rawValue ?? "manual", now])
            try keepEventPositions()
        case .emergencySending:
            try db.execute(sql: "UPDATE incident SET sentAt = ? WHERE id = (SELECT MAX(id) FROM incident) AND sentAt IS NULL", arguments: [now])
        case .noEmergency, .emergencyEnded:
            try db.execute(sql: "UPDATE incident SET endedAt = ?, outcome = ? WHERE id = (SELECT MAX(id) FROM incident) AND endedAt IS NULL", arguments: [now, reason])
            if state == .noEmergency { try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [Self.eventPositionsKey]) }
        case .emergencySent, .emergencySendingFailed:
            break
        }
    }

    private func abandonTestMessages(at now: Int64) throws {
        for message in try waiting() where message.isTest {
            try abandon(message, reason: "a real emergency began; the test alarm's message is not sent", at: now)
        }
    }

    /// Queues a message the state machine does not decide on (a low keychain battery).
    public func enqueue(_ kind: MessageKind, at now: Int64) throws {
        try journal(.send(kind), at: now)
        try queue(kind, at: now, isTest: try workflow().trigger == .test)
    }

    /// One row per recipient; the key names the message, so a retry after a restart is
    /// recognisably the same message, never a second one.
    private func queue(_ kind: MessageKind, at now: Int64, concealed: Bool = false, isTest: Bool) throws {
        let sequence = (try setting("messageSequence", as: Int.self) ?? 0) + 1
        try setSetting("messageSequence", sequence)
        let contacts = try readableContacts(at: now)
        var recipients = [Self.localLog] + contacts.map({ ($0.channel, $0.phone.e164) })
        if kind == .notWorn || kind == .keychainLost { recipients = try wearerRecipients(channelsOf: contacts) }
        if kind == .allClear {
            // Whoever never heard of the emergency needs no all clear; told includes perhaps told,
            // as an attempt that failed may still have arrived (an SMS whose report is late, a
            // webhook that timed out after the receiver took it). Only this incident's messages
            // count (a test alarm at set-up reached everyone), and only the emergency's own kinds.
            // Counted before the abandoning below, which counts as an attempt.
            let before = try currentIncidentOutboxBefore()
            let kinds = MessageKind.emergency.map(\.rawValue)
            let marks = kinds.map { _ in "?" }.joined(separator: ", ")
            // So is whoever's end of an earlier emergency (its all clear, its "tracking stopped")
            // this one's alert superseded: they heard of that one, and this all clear now stands
            // for both.
            // `reached`: a send was really tried or confirmed; an alert given up before any try
            // (a rejected number, a channel gone) counts as an attempt but reached nobody.
            let told = try Row.fetchAll(
                db, sql: "SELECT channel, recipient, MAX(deliveredAt IS NOT NULL OR lastAttemptAt IS NOT NULL) AS reached FROM outbox WHERE ((deliveredAt IS NOT NULL OR attempts > 0) AND id > ? AND kind IN (\(marks))) OR (kind IN (?, ?) AND supersededBy > ?) GROUP BY channel, recipient ORDER BY MIN(id)",
                arguments: StatementArguments(
                    [before] as [any DatabaseValueConvertible] + kinds + [MessageKind.allClear.rawValue, MessageKind.trackingStopped.rawValue, before]))
                .map { (channel: $0["channel"] as String, recipient: $0["recipient"] as String, reached: $0["reached"] as Bool) }
            let notified = Set(told.map { $0.recipient })
            recipients = recipients.filter { $0.1 == Self.localLog.address || notified.contains($0.1) }
            // Whoever was told and is no longer a contact (the file's [[contacts]] changed at a
            // restart during the emergency) still hears that it is over, where they were told.
            var addressed = Set(recipients.map { $0.1 })
            for (channel, recipient, reached) in told where reached && !addressed.contains(recipient) {
                recipients.append((channel, recipient))
                addressed.insert(recipient)
            }
            // An alert still waiting for its retry must not arrive after the all clear. What is not
            // the emergency's (a sensor fault, a low battery) still goes, and so does whatever an
            // earlier emergency hidden by the duress PIN sent (a duress PIN sends no all clear, so
            // this one is another emergency's): a contact whose phone was off still learns of it.
            let pending = try OutboxMessage.fetchAll(
                db, sql: "SELECT id, idempotencyKey, kind, channel, recipient, attempts, test, concealed FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ? AND NOT concealed",
                arguments: [Int64.max])
            for message in pending where kinds.contains(message.kind) { try abandon(message, reason: "superseded by the all clear", at: now) }
        }
        let queuedBefore = try lastOutboxID()
        for recipient in recipients {
            try db.execute(
                sql: "INSERT OR IGNORE INTO outbox(idempotencyKey, kind, channel, recipient, createdAt, nextAttemptAt, priority, test, concealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [try messageKey(sequence, recipient.0, recipient.1), kind.rawValue, recipient.0, recipient.1, now, now, kind.deliveryPriority, isTest, concealed])
        }
        // Under the duress PIN nothing is superseded: the hidden emergency's re-alert must change
        // nothing the device shows, and its own earlier messages still go.
        if kind == .alert, !isTest, !concealed { try supersedeEarlier(than: queuedBefore, by: sequence, recipients: recipients, at: now) }
    }

    /// A new emergency's alert supersedes what still waits for the same recipients of earlier
    /// ones: their alerts, updates and ends (an all clear that followed a late delivery during
    /// this countdown included; no emergency has an end waiting before its own alert). Sent after
    /// the new alert (alerts go first), an old all clear would seem to call the new emergency
    /// off. A duress message, and whatever a hidden emergency sends, still goes.
    private func supersedeEarlier(than queuedBefore: Int64, by sequence: Int, recipients: [(String, String)], at now: Int64) throws {
        let ends = [MessageKind.trackingStopped, .allClear].map(\.rawValue)
        let updates = [MessageKind.alert, .locationUpdate, .keychainRepeat].map(\.rawValue)
        let stale = try OutboxMessage.fetchAll(
            db, sql: """
                SELECT id, idempotencyKey, kind, channel, recipient, attempts, test, concealed FROM outbox
                WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ? AND id <= ? AND NOT test AND NOT concealed
                  AND (kind IN (?, ?) OR (id <= ? AND kind IN (?, ?, ?)))
                """,
            arguments: StatementArguments([Int64.max, queuedBefore] as [any DatabaseValueConvertible] + ends + [try currentIncidentOutboxBefore()] + updates))
        for message in stale where message.recipient != Self.localLog.address {
            guard let recipient = recipients.first(where: { $0.0 == message.channel && $0.1 == message.recipient }) else { continue }
            try db.execute(
                sql: "UPDATE outbox SET supersededAt = ?, supersededBy = ?, channelProgress = NULL WHERE id = ?",
                arguments: [now, queuedBefore + 1, message.id])
            try note("superseded", "\(message.idempotencyKey)|by \(try messageKey(sequence, recipient.0, recipient.1))", at: now)
        }
    }

    /// `msg-<sequence>-<channel>-<recipient>-<tag>`. Receivers drop a key they have seen; the
    /// sequence starts again in a database made anew or a copy in memory that is never written
    /// back, so the tag, random per database and per copy, keeps a new alert's key new.
    func messageKey(_ sequence: Int, _ channel: String, _ recipient: String) throws -> String {
        let tag = try setting(Self.messageKeyTag, as: String.self) ?? {
            let fresh = Self.freshMessageKeyTag()
            try setSetting(Self.messageKeyTag, fresh)
            return fresh
        }()
        return "msg-\(sequence)-\(channel)-\(recipient)-\(tag)"
    }

    static let messageKeyTag = "messageKeyTag"

    static func freshMessageKeyTag() -> String { String(UInt32.random(in: .min ... .max), radix: 16) }

    // MARK: Journal

    public func note(_ type: String, _ payload: String, at now: Int64) throws {
        try db.execute(sql: "INSERT INTO journal(t, type, payload) VALUES (?, ?, ?)", arguments: [now, type, payload])
    }

    /// A journal time: ISO 8601 UTC, whole seconds.
    static func isoTime(_ nanoseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(nanoseconds) / 1e9))
    }

    func journal(_ action: WorkflowAction, at now: Int64) throws {
        let (type, payload) = Self.journalLine(action)
        try note(type, payload, at: now)
    }

    /// A concealed step is journalled as "concealed", which the page's history leaves out.
    static func journalLine(_ action: WorkflowAction) -> (type: String, payload: String) {
        let (type, payload): (String, String)
        switch action {
        case .concealed(let inner):
            let line = journalLine(inner)
            (type, payload) = ("concealed", "\(line.type)|\(line.payload)")
        case .transition(let from, let to, let reason): (type, payload) = ("transition", "\(from.rawValue)>\(to.rawValue)|\(reason)")
        case .alarm(let on): (type, payload) = ("alarm", on ? "on" : "off")
        case .keychainBeep(let on): (type, payload) = ("beep", on ? "on" : "off")
        case .send(let kind): (type, payload) = ("send", kind.rawValue)
        case .tracking(let on): (type, payload) = ("tracking", on ? "on" : "off")
        case .showSurvey: (type, payload) = ("survey", "")
        case .pinRequired: (type, payload) = ("pin-required", "")
        case .warning(let text): (type, payload) = ("warning", text)
        case .ignored(let text): (type, payload) = ("ignored", text)
        }
        return (type, payload)
    }

    // MARK: Outbox

    /// Messages not yet delivered whose next attempt is due.
    public func due(at now: Int64) throws -> [OutboxMessage] {
        try OutboxMessage.fetchAll(
            db, sql: "SELECT id, idempotencyKey, kind, channel, recipient, attempts, test, concealed FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt <= ? ORDER BY id",
            arguments: [now])
    }

    /// Messages still to be delivered, now or later: neither delivered, superseded nor abandoned
    /// (an abandoned one waits at `Int64.max` for ever).
    public func waiting() throws -> [OutboxMessage] {
        try OutboxMessage.fetchAll(
            db, sql: "SELECT id, idempotencyKey, kind, channel, recipient, attempts, test, concealed FROM outbox WHERE deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ? ORDER BY id",
            arguments: [Int64.max])
    }

    /// Records a confirmed delivery (once) and tells the state machine.
    @discardableResult
    public func delivered(_ message: OutboxMessage, at now: Int64) throws -> [WorkflowAction] {
        // What the channel kept of the message (an SMS's text, with the position) goes with it.
        try db.execute(
            sql: "UPDATE outbox SET deliveredAt = ?, attempts = attempts + 1, channelProgress = NULL WHERE id = ? AND deliveredAt IS NULL",
            arguments: [now, message.id])
        guard db.changesCount == 1 else { return [] }
        try note("delivered", message.idempotencyKey, at: now)
        let current = try followWithAllClearIfOwed(message, at: now)
        guard current, message.recipient != Self.localLog.address, let kind = MessageKind(rawValue: message.kind) else { return [] }
        return try apply(.delivered(kind), at: now)
    }

    /// A message of an earlier emergency, still on its way when a new one began, confirms
    /// nothing of the new one: its contacts have not heard of it. Its all clear follows unless
    /// the new emergency's alert already waits for that recipient (which supersedes it), or it
    /// would arrive after that alert and seem to call it off. Returns whether the message is the
    /// current emergency's.
    private func followWithAllClearIfOwed(_ message: OutboxMessage, at now: Int64) throws -> Bool {
        let before = try currentIncidentOutboxBefore()
        let current = message.id > before
        let superseded = current ? false : try alertQueued(after: before, to: message)
        if !superseded { try followWithAllClear(message, at: now) }
        return current
    }

    /// An attempt that ended undelivered after the all clear gave up on its alert: it was on its
    /// way then, so its recipient was not counted as told, yet it may have arrived (an SMS the
    /// network accepted, a webhook that timed out after the receiver took it). Like anyone
    /// perhaps told, they get the all clear.
    func attemptEndedUndelivered(_ message: OutboxMessage, at now: Int64) throws {
        guard !message.isTest,
            try Bool.fetchOne(
                db, sql: "SELECT deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt = ? FROM outbox WHERE id = ?",
                arguments: [Int64.max, message.id]) == true
        else { return }
        _ = try followWithAllClearIfOwed(message, at: now)
    }

    /// A real alert after `id` delivered to the message's recipient or still to go (not one
    /// given up untried, which tells them nothing).
    private func alertQueued(after id: Int64, to message: OutboxMessage) throws -> Bool {
        try Bool.fetchOne(
            db, sql: """
                SELECT EXISTS(SELECT 1 FROM outbox WHERE id > ? AND kind = ? AND channel = ? AND recipient = ? AND NOT test
                  AND supersededAt IS NULL AND (deliveredAt IS NOT NULL OR nextAttemptAt < ?))
                """,
            arguments: [id, MessageKind.alert.rawValue, message.channel, message.recipient, Int64.max]) ?? false
    }

    /// The last outbox row before the current incident began: rows after it are this incident's.
    private func currentIncidentOutboxBefore() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT outboxBefore FROM incident ORDER BY id DESC LIMIT 1") ?? 0
    }

    /// An alert that was on its way when the all clear was queued (no attempt finished, so its
    /// recipient was not counted as told) and arrived after all: the all clear goes to them too.
    private func followWithAllClear(_ message: OutboxMessage, at now: Int64) throws {
        guard message.kind == MessageKind.alert.rawValue,
            let key = try String.fetchOne(
                db, sql: "SELECT idempotencyKey FROM outbox WHERE kind = ? AND id > ? ORDER BY id DESC LIMIT 1",
                arguments: [MessageKind.allClear.rawValue, message.id]),
            let sequence = OutboxMessage.sequence(inKey: key)
        else { return }
        try db.execute(
            sql: "INSERT OR IGNORE INTO outbox(idempotencyKey, kind, channel, recipient, createdAt, nextAttemptAt, priority, test) SELECT ?, kind, ?, ?, ?, ?, priority, test FROM outbox WHERE idempotencyKey = ?",
            arguments: [try messageKey(sequence, message.channel, message.recipient), message.channel, message.recipient, now, now, key])
    }

    /// Gives up on a message that can never be delivered (no such channel, a number the network
    /// rejects); the journal says why, and it never comes due again.
    public func abandon(_ message: OutboxMessage, reason: String, at now: Int64) throws {
        try db.execute(
            sql: "UPDATE outbox SET attempts = attempts + 1, nextAttemptAt = ?, channelProgress = NULL WHERE id = ?", arguments: [Int64.max, message.id])
        try note(message.isConcealed ? "concealed" : "undeliverable", "\(message.idempotencyKey)|\(reason)", at: now)
    }

    /// Schedules another attempt after `retryAfter` seconds, unless the message was given up or
    /// superseded while this one was on its way (the all clear gave up on its alert): that stays
    /// so, or the alert would go again after the all clear.
    public func failed(_ message: OutboxMessage, retryAfter: Double, at now: Int64) throws {
        // The attempt's time too: the probe order ranks by it, and an old one would win every probe.
        try db.execute(
            sql: """
                UPDATE outbox SET attempts = attempts + 1, nextAttemptAt = ?, lastAttemptAt = ?
                WHERE id = ? AND deliveredAt IS NULL AND supersededAt IS NULL AND nextAttemptAt < ?
                """,
            arguments: [now + Int64(retryAfter * 1e9), now, message.id, Int64.max])
        try attemptEndedUndelivered(message, at: now)
    }
}

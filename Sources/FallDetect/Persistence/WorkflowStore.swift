import Foundation
import GRDB

/// The workflow's durable memory in one SQLite file: the state machine's snapshot, the journal of
/// everything that happened, contacts, settings and the outbox of messages to deliver.
///
/// Every input is applied in one transaction that reads the snapshot, runs the state machine, and
/// writes the new snapshot, its journal lines and its outgoing messages together. A process killed
/// at any instant therefore restarts from a consistent state: either the input happened, with all
/// it caused, or it did not happen at all. Messages are delivered only from the outbox after the
/// commit, each with an idempotency key, so a restart retries them without inventing new ones.
public final class WorkflowStore: Sendable {
    public let path: String
    private let database: DatabaseQueue

    public init(path: String) throws {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw FallDetectError(.io, "cannot open the workflow database: \(error)", path: path)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "contact") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("phone", .text).notNull().unique()
                t.column("channel", .text).notNull()
            }
            try db.create(table: "journal") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("t", .integer).notNull()
                t.column("type", .text).notNull()
                t.column("payload", .text).notNull()
            }
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("idempotencyKey", .text).notNull().unique()
                t.column("kind", .text).notNull()
                t.column("channel", .text).notNull()
                t.column("recipient", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .integer).notNull()
                t.column("deliveredAt", .integer)
            }
        }
        return migrator
    }

    // MARK: Settings

    /// A JSON-encoded value stored under `key`.
    public func setting<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) else { return nil }
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        }
    }

    public func setSetting<T: Encodable>(_ key: String, _ value: T) throws {
        try write { db in try Self.put(db, key, value) }
    }

    static func put<T: Encodable>(_ db: Database, _ key: String, _ value: T) throws {
        let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, text])
    }

    // MARK: Contacts

    public func contacts() throws -> [Contact] {
        try read { db in try Contact.fetchAll(db, sql: "SELECT name, phone, channel FROM contact ORDER BY id") }
    }

    /// Adds or replaces (by phone number) a contact, at most `limit` of them.
    public func saveContact(_ contact: Contact, limit: Int = 5) throws {
        try write { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM contact WHERE phone = ?)", arguments: [contact.phone.e164]) ?? false
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact") ?? 0
            guard exists || count < limit else {
                throw FallDetectError(.invalidArgument, "at most \(limit) contacts", field: "contact")
            }
            try db.execute(
                sql: "INSERT INTO contact(name, phone, channel) VALUES (?, ?, ?) ON CONFLICT(phone) DO UPDATE SET name = excluded.name, channel = excluded.channel",
                arguments: [contact.name, contact.phone.e164, contact.channel])
        }
    }

    public func removeContact(phone: PhoneNumber) throws {
        try write { db in try db.execute(sql: "DELETE FROM contact WHERE phone = ?", arguments: [phone.e164]) }
    }

    // MARK: The workflow

    /// The machine as last committed (a fresh one with default settings on first use).
    public func workflow() throws -> EmergencyWorkflow {
        try setting("workflow", as: EmergencyWorkflow.self) ?? EmergencyWorkflow()
    }

    /// Applies one input atomically and returns what it caused. Journal lines and outbox rows for
    /// the resulting actions are committed with the new state, or none of it is.
    @discardableResult
    public func apply(_ input: WorkflowInput, at now: Int64) throws -> [WorkflowAction] {
        try write { db in
            var machine = try Self.get(db, "workflow", EmergencyWorkflow.self) ?? EmergencyWorkflow()
            let sequenceBefore = try Self.get(db, "messageSequence", Int.self) ?? 0
            let actions = machine.handle(input, at: now)
            var sequence = sequenceBefore
            let contacts = try Contact.fetchAll(db, sql: "SELECT name, phone, channel FROM contact ORDER BY id")
            for action in actions {
                try Self.journal(db, at: now, action)
                if case .send(let kind) = action {
                    sequence += 1
                    // One row per recipient; the key names the message, so a retry after a restart
                    // is recognisably the same message, never a second one.
                    for recipient in Self.recipients(for: kind, contacts: contacts) {
                        try db.execute(
                            sql: "INSERT OR IGNORE INTO outbox(idempotencyKey, kind, channel, recipient, createdAt, nextAttemptAt) VALUES (?, ?, ?, ?, ?, ?)",
                            arguments: ["msg-\(sequence)-\(recipient.channel)-\(recipient.address)", kind.rawValue, recipient.channel, recipient.address, now, now])
                    }
                }
            }
            try Self.put(db, "workflow", machine)
            try Self.put(db, "messageSequence", sequence)
            return actions
        }
    }

    /// The console channel always gets a copy, for the journal and for demos; contacts get theirs
    /// on their preferred channel.
    static func recipients(for kind: MessageKind, contacts: [Contact]) -> [(channel: String, address: String)] {
        [("console", "log")] + contacts.map { ($0.channel, $0.phone.e164) }
    }

    // MARK: Journal

    public func journal() throws -> [JournalEntry] {
        try read { db in try JournalEntry.fetchAll(db, sql: "SELECT t, type, payload FROM journal ORDER BY id") }
    }

    /// Adds a line of its own to the journal (a delivery, an error).
    public func note(_ type: String, _ payload: String, at now: Int64) throws {
        try write { db in try db.execute(sql: "INSERT INTO journal(t, type, payload) VALUES (?, ?, ?)", arguments: [now, type, payload]) }
    }

    static func journal(_ db: Database, at now: Int64, _ action: WorkflowAction) throws {
        let (type, payload): (String, String)
        switch action {
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
        try db.execute(sql: "INSERT INTO journal(t, type, payload) VALUES (?, ?, ?)", arguments: [now, type, payload])
    }

    // MARK: Outbox

    /// Messages not yet delivered whose next attempt is due.
    public func due(at now: Int64) throws -> [OutboxMessage] {
        try read { db in
            try OutboxMessage.fetchAll(
                db, sql: "SELECT id, idempotencyKey, kind, channel, recipient, attempts FROM outbox WHERE deliveredAt IS NULL AND nextAttemptAt <= ? ORDER BY id",
                arguments: [now])
        }
    }

    /// Records a confirmed delivery and tells the state machine in the same transaction.
    @discardableResult
    public func delivered(_ message: OutboxMessage, at now: Int64) throws -> [WorkflowAction] {
        try write { db in
            try db.execute(sql: "UPDATE outbox SET deliveredAt = ?, attempts = attempts + 1 WHERE id = ? AND deliveredAt IS NULL", arguments: [now, message.id])
            guard db.changesCount == 1, message.channel != "console", let kind = MessageKind(rawValue: message.kind) else { return [] }
            var machine = try Self.get(db, "workflow", EmergencyWorkflow.self) ?? EmergencyWorkflow()
            let actions = machine.handle(.delivered(kind), at: now)
            for action in actions { try Self.journal(db, at: now, action) }
            try Self.put(db, "workflow", machine)
            return actions
        }
    }

    /// Schedules another attempt after `retryAfter` seconds.
    public func failed(_ message: OutboxMessage, retryAfter: Double, at now: Int64) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, nextAttemptAt = ? WHERE id = ?",
                arguments: [now + Int64(retryAfter * 1e9), message.id])
        }
    }

    // MARK: Plumbing

    static func get<T: Decodable>(_ db: Database, _ key: String, _ type: T.Type) throws -> T? {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) else { return nil }
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.read(body) } catch let error as FallDetectError { throw error } catch {
            throw FallDetectError(.io, "database read failed: \(error)", path: path)
        }
    }

    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try database.write(body) } catch let error as FallDetectError { throw error } catch {
            throw FallDetectError(.io, "database write failed: \(error)", path: path)
        }
    }
}

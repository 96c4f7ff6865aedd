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
    /// False for `inMemoryCopy(of:)`: what happens now is forgotten when the process ends.
    public let isDurable: Bool
    private let database: DatabaseQueue

    public init(path: String) throws {
        self.path = path
        isDurable = true
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            // WAL: a commit is one append and one sync, and readers never block the writer.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw FallDetectError(.io, "cannot open the workflow database: \(error)", path: path)
        }
    }

    private init(path: String, memory: DatabaseQueue) {
        self.path = path
        isDurable = false
        database = memory
    }

    /// What the file at `path` holds (person, contacts, PIN, the state and the outbox), copied
    /// into memory, for a database that cannot be written (a read-only file system, a file the
    /// service may not write): the device goes on protecting its wearer, and forgets what happens
    /// now when it stops. A file that cannot even be read gives an empty store whose set-up is
    /// closed (`WorkflowTransaction.unreadFileKey`): the file may hold a PIN.
    public static func inMemoryCopy(of path: String) throws -> WorkflowStore {
        do {
            let memory = try DatabaseQueue()
            var configuration = Configuration()
            configuration.readonly = true
            var copied = false
            // Read-only with its WAL when that can be read; else the file alone, as it is (a
            // read-only file system without the WAL's shared memory file).
            if FileManager.default.isReadableFile(atPath: path) {
                for source in [path, "file:\(path)?immutable=1"] {
                    guard let file = try? DatabaseQueue(path: source, configuration: configuration), (try? file.backup(to: memory)) != nil else { continue }
                    copied = true
                    break
                }
            }
            // Closed unless the file is surely not there: one that cannot even be looked at (a
            // folder the service may not read) may hold a PIN as well. An empty file copies.
            var info = stat()
            let missing = stat(path, &info) != 0 && errno == ENOENT
            let unread = !copied && !missing
            try migrator.migrate(memory)
            try memory.write { db in
                let tx = WorkflowTransaction(db: db)
                // What this copy sends is forgotten with it: its keys must not be the file's next ones.
                try tx.setSetting(WorkflowTransaction.messageKeyTag, WorkflowTransaction.freshMessageKeyTag())
                if unread { try tx.setSetting(WorkflowTransaction.unreadFileKey, true) }
            }
            return WorkflowStore(path: path, memory: memory)
        } catch {
            throw FallDetectError(.io, "cannot copy the workflow database into memory: \(error)", path: path)
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
        migrator.registerMigration("v2-incidents") { db in
            // One row per emergency, from its countdown to its end: the history a carer reviews.
            try db.create(table: "incident") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("trigger", .text).notNull()
                t.column("startedAt", .integer).notNull()
                t.column("endedAt", .integer)
                t.column("outcome", .text)
                t.column("sentAt", .integer)
            }
        }
        migrator.registerMigration("v3-dispatcher") { db in
            // Delivery decisions the dispatcher must remember across a restart: which messages a
            // newer one superseded, which go first, which was tried longest ago (probe rotation),
            // and each channel's health (backoff is per channel, not per message).
            try db.alter(table: "outbox") { t in
                t.add(column: "priority", .integer).notNull().defaults(to: 1)
                t.add(column: "supersededAt", .integer)
                t.add(column: "lastAttemptAt", .integer)
            }
            try db.execute(sql: "UPDATE outbox SET priority = 0 WHERE kind = 'alert'")
            try db.create(table: "channelHealth") { t in
                t.primaryKey("channel", .text)
                t.column("failingSince", .integer).notNull()
                t.column("nextProbeAt", .integer).notNull()
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("isDown", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v4-keychain") { db in
            // The keychain bound by `detectord pair`: one per device, one person per keychain.
            try db.create(table: "keychainBinding") { t in
                t.primaryKey("address", .text)
                t.column("addressType", .text).notNull()
                t.column("name", .text).notNull()
                t.column("person", .text).notNull()
                t.column("device", .text).notNull()
                t.column("boundAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v5-test-alarm") { db in
            // A test alarm's messages say so, even those that go out after the test has ended.
            try db.alter(table: "outbox") { t in t.add(column: "test", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v6-concealed") { db in
            // Messages of the emergency the duress PIN hides: sent as any other, never shown.
            try db.alter(table: "outbox") { t in t.add(column: "concealed", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v7-channel-progress") { db in
            // What a channel has sent of a message in parts, so a restart does not send it again.
            try db.alter(table: "outbox") { t in t.add(column: "channelProgress", .text) }
        }
        migrator.registerMigration("v8-incident-messages") { db in
            // The last outbox row before the incident began: its messages are those after it.
            try db.alter(table: "incident") { t in t.add(column: "outboxBefore", .integer).notNull().defaults(to: 0) }
        }
        migrator.registerMigration("v9-superseded-by") { db in
            // The first row of the message that superseded this one: which emergency did, told by
            // id, which no clock step moves.
            try db.alter(table: "outbox") { t in t.add(column: "supersededBy", .integer) }
        }
        return migrator
    }

    /// Runs `body` as one transaction: all it writes commits together, or nothing does.
    public func transaction<T>(_ body: (WorkflowTransaction) throws -> T) throws -> T {
        try write { db in try body(WorkflowTransaction(db: db)) }
    }

    /// Reads in a consistent snapshot.
    public func snapshot<T>(_ body: (WorkflowTransaction) throws -> T) throws -> T {
        try read { db in try body(WorkflowTransaction(db: db)) }
    }

    // Single-step conveniences, each its own transaction.

    public func setting<T: Decodable>(_ key: String, as type: T.Type) throws -> T? { try snapshot { try $0.setting(key, as: type) } }
    public func setSetting<T: Encodable>(_ key: String, _ value: T) throws { try transaction { try $0.setSetting(key, value) } }
    public func contacts() throws -> [Contact] { try snapshot { try $0.contacts() } }
    public func saveContact(_ contact: Contact, pin: String? = nil, limit: Int = 5, at now: Int64 = 0) throws {
        try transaction { try $0.saveContact(contact, pin: pin, limit: limit, at: now) }
    }
    public func removeContact(phone: PhoneNumber, pin: String? = nil, at now: Int64 = 0) throws {
        try transaction { try $0.removeContact(phone: phone, pin: pin, at: now) }
    }
    public func workflow() throws -> EmergencyWorkflow { try snapshot { try $0.workflow() } }
    @discardableResult
    public func apply(_ input: WorkflowInput, at now: Int64) throws -> [WorkflowAction] { try transaction { try $0.apply(input, at: now) } }
    public func enqueue(_ kind: MessageKind, at now: Int64) throws { try transaction { try $0.enqueue(kind, at: now) } }
    public func note(_ type: String, _ payload: String, at now: Int64) throws { try transaction { try $0.note(type, payload, at: now) } }
    public func due(at now: Int64) throws -> [OutboxMessage] { try snapshot { try $0.due(at: now) } }
    public func waiting() throws -> [OutboxMessage] { try snapshot { try $0.waiting() } }
    @discardableResult
    public func delivered(_ message: OutboxMessage, at now: Int64) throws -> [WorkflowAction] { try transaction { try $0.delivered(message, at: now) } }
    public func abandon(_ message: OutboxMessage, reason: String, at now: Int64) throws {
        try transaction { try $0.abandon(message, reason: reason, at: now) }
    }
    public func failed(_ message: OutboxMessage, retryAfter: Double, at now: Int64) throws {
        try transaction { try $0.failed(message, retryAfter: retryAfter, at: now) }
    }

    public func channelHealth() throws -> [ChannelHealth] { try snapshot { try $0.channelHealth() } }

    public func incidents() throws -> [Incident] {
        try read { db in try Incident.fetchAll(db, sql: "SELECT id, trigger, startedAt, endedAt, outcome, sentAt FROM incident ORDER BY id") }
    }

    /// The newest `limit` incidents with their evidence, timeline and messages, newest first.
    public func incidentHistory(limit: Int = 20) throws -> [IncidentHistory] {
        try read { db in try IncidentHistory.fetch(db, limit: limit) }
    }

    public func journal() throws -> [JournalEntry] {
        try read { db in try JournalEntry.fetchAll(db, sql: "SELECT t, type, payload FROM journal ORDER BY id") }
    }

    // MARK: Plumbing

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

import Foundation

/// Runs a drill script on a virtual clock against the real state machine and the real SQLite
/// store: a 30-minute incident takes well under a second. Every second of virtual time is a tick;
/// due messages go out after every step and tick. Output is JSON lines through `emit`.
///
/// Delivery: the built-in console channel records each attempt; contacts that prefer another
/// channel go through the `AlertChannel` configured under that name (a webhook, a GSM modem), which
/// decides when to retry. While the script has the network down, every attempt fails, and console
/// retries back off exponentially (30 s doubling to 5 min).
public final class DrillRunner {
    public struct Options: Sendable {
        public var databasePath: String
        /// Wall-clock time at drill second 0 (UTC ns). Fixed by default so outputs are reproducible.
        public var startUTCNanoseconds: Int64 = 1_767_268_800_000_000_000 // 2026-01-01T12:00:00Z
        public var timeZone = TimeZone(identifier: "UTC")!
        /// Marks every message as a test of the alarm chain.
        public var isTest = false
        public var firstRetry: Double = 30
        public var maximumRetry: Double = 300
        /// Virtual seconds per wall-clock second; nil runs as fast as possible.
        public var pace: Double?
        /// Channels by name, for contacts whose preferred channel is not the built-in console
        /// (e.g. "webhook", "sms"). A message for a channel that is not here cannot be delivered.
        public var channels: [String: any AlertChannel] = [:]
        /// Stands in the payload's device_id.
        public var deviceID = "detectord-drill"

        public init(databasePath: String) {
            self.databasePath = databasePath
        }
    }

    /// How far a drill got, committed with every step and tick so a killed drill resumes there.
    struct Progress: Codable {
        var time: Double
        var nextStep: Int
        var networkUp: Bool
    }

    struct StoredPosition: Codable {
        var latitude: Double
        var longitude: Double
        var accuracy: Double?
        var speed: Double?
    }

    public let options: Options
    private let emit: (String) -> Void
    private var store: WorkflowStore
    private var networkUp = true
    private var now: Double = 0

    public init(options: Options, emit: @escaping (String) -> Void) throws {
        self.options = options
        self.emit = emit
        store = try WorkflowStore(path: options.databasePath)
    }

    /// A test alarm is started by whoever can run this command on the device: it may stand the
    /// alarm down without the PIN, as a real incident could not.
    public func authorizeTest() {
        authorizedTest = true
    }

    private var authorizedTest = false

    public func run(_ script: DrillScript) async throws {
        for error in script.errors {
            emit(JSONLine.make([("type", .string("error")), ("line", .int(error.line ?? 0)), ("message", .string(error.description))]))
        }
        var first = 0
        if let progress = try store.setting("drillProgress", as: Progress.self) {
            // A drill killed part-way: carry on from what the database says happened.
            now = progress.time
            networkUp = progress.networkUp
            first = progress.nextStep
            emit(JSONLine.make([("t", .number(now)), ("type", .string("resume")), ("state", .string(try store.workflow().state.rawValue))]))
            // Killed between a tick and its deliveries: make those attempts at the time they were due.
            try await deliver()
        }
        for (index, step) in script.steps.enumerated() where index >= first {
            try await advance(to: step.at, nextStep: index)
            do {
                try store.transaction { tx in
                    try perform(step, in: tx)
                    try tx.setSetting("drillProgress", Progress(time: now, nextStep: index + 1, networkUp: networkUp))
                }
                report(pending)
            } catch let error as FallDetectError {
                emit(JSONLine.make([("t", .number(now)), ("type", .string("error")), ("line", .int(step.line)), ("message", .string(error.description))]))
                try store.setSetting("drillProgress", Progress(time: now, nextStep: index + 1, networkUp: networkUp))
            }
            pending = []
            if case .crash = step.action {
                // The process dies here: nothing in memory survives; the database is all there is.
                store = try WorkflowStore(path: options.databasePath)
                networkUp = try store.setting("drillProgress", as: Progress.self)?.networkUp ?? true
                emit(JSONLine.make([("t", .number(now)), ("type", .string("restart")), ("state", .string(try store.workflow().state.rawValue))]))
            }
            try await deliver()
        }
    }

    /// Actions from the step in progress, reported once its transaction has committed.
    private var pending: [WorkflowAction] = []

    private var utc: Int64 { options.startUTCNanoseconds + Int64((now * 1e9).rounded()) }

    private func advance(to target: Double, nextStep: Int) async throws {
        while now + 1 <= target {
            now += 1
            if let pace = options.pace { usleep(UInt32(1_000_000 / pace)) }
            let actions = try store.transaction { tx in
                let before = tx.changesSoFar
                let actions = try tx.apply(.tick, at: utc)
                // A tick that changed nothing may run again after a restart without harm, so
                // progress is saved only with ticks that wrote something.
                if tx.changesSoFar != before {
                    try tx.setSetting("drillProgress", Progress(time: now, nextStep: nextStep, networkUp: networkUp))
                }
                return actions
            }
            report(actions)
            try await deliver()
        }
        now = max(now, target)
    }

    private func perform(_ step: DrillStep, in tx: WorkflowTransaction) throws {
        func apply(_ input: WorkflowInput) throws { pending += try tx.apply(input, at: utc) }
        switch step.action {
        case .start(let name, let phone, let country):
            let person = try ProtectedPerson(fullName: name, phone: phone, country: country)
            let position = try tx.setting("lastPosition", as: StoredPosition.self)
            try apply(.startProtection(person, gnssConfigured: position != nil, hasFix: position != nil))
        case .contact(let name, let phone, let pin, let channel):
            try tx.saveContact(Contact(name: name, phone: phone, channel: channel ?? "console"), pin: pin, at: utc)
        case .setPIN(let pin, let duress):
            try tx.setSetting("pinHash", PINHasher.hash(pin))
            if let duress { try tx.setSetting("duressHash", PINHasher.hash(duress)) }
        case .detect(let trigger): try apply(.detection(trigger))
        case .sos(let keychain): try apply(.sos(fromKeychain: keychain))
        case .imFine: try apply(.imFine)
        case .followUp(let kind): try apply(.followUp(kind))
        case .quit: try apply(.quit)
        case .call112: try apply(.call112)
        case .cancel:
            if authorizedTest { try apply(.disarm(.correct)) }
            try apply(.cancel)
        case .resume: try apply(.resume)
        case .survey(let answer): try apply(.survey(answer))
        case .disarm(let pin):
            guard let hash = try tx.setting("pinHash", as: String.self) else {
                throw FallDetectError(.invalidArgument, "no PIN is set: set_pin first", line: step.line, field: "pin")
            }
            var lock = try tx.setting("pinLock", as: PINLock.self) ?? PINLock()
            let outcome = lock.check(pin, pinHash: hash, duressHash: try tx.setting("duressHash", as: String.self), at: utc)
            try tx.setSetting("pinLock", lock)
            switch outcome {
            case .verdict(let verdict): try apply(.disarm(verdict))
            case .lockedOut(let seconds):
                pending.append(.ignored("PIN entry locked for \(Int(seconds.rounded(.up))) s after wrong tries"))
            }
        case .position(let latitude, let longitude, let accuracy, let speed):
            let position = StoredPosition(latitude: latitude, longitude: longitude, accuracy: accuracy, speed: speed)
            try tx.setSetting("lastPosition", position)
            // The payload carries the two positions before the latest: the direction of travel.
            var history = try tx.setting("positionHistory", as: [StoredPosition].self) ?? []
            history = Array(([position] + history).prefix(3))
            try tx.setSetting("positionHistory", history)
            try apply(.position(latitude: latitude, longitude: longitude))
        case .network(let up):
            networkUp = up
        case .battery(let percent):
            let last = try tx.setting("lowBatteryWarnedAt", as: Int64.self)
            if percent < 20, last.map({ utc - $0 >= 86_400_000_000_000 }) ?? true {
                try tx.setSetting("lowBatteryWarnedAt", utc)
                try tx.setSetting("batteryPercent", percent)
                try tx.enqueue(.lowBattery, at: utc)
            }
        case .crash, .advance:
            break
        }
    }

    private func report(_ actions: [WorkflowAction]) {
        for action in actions {
            switch action {
            case .transition(let from, let to, let reason):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("transition")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))]))
            case .alarm(let on):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("alarm")), ("on", .bool(on))]))
            case .pinRequired, .ignored, .warning, .showSurvey:
                let text: String = switch action {
                case .pinRequired: "PIN required"
                case .ignored(let why): why
                case .warning(let why): why
                default: "survey shown"
                }
                emit(JSONLine.make([("t", .number(now)), ("type", .string("note")), ("text", .string(text))]))
            case .keychainBeep, .send, .tracking:
                break // sends appear as message lines when delivered or attempted
            }
        }
    }

    /// The attempt is emitted before it is recorded: killed in between, the drill sends the same
    /// message again after restarting, under the same idempotency key, rather than losing it.
    private func deliver() async throws {
        for message in try store.due(at: utc) {
            let attempt = message.attempts + 1
            let text = try self.text(for: message)
            if message.channel == WorkflowTransaction.localLog.channel {
                emitMessage(message, text: text, delivered: networkUp, attempt: attempt)
                if networkUp {
                    report(try store.delivered(message, at: utc))
                } else {
                    try store.failed(message, retryAfter: backoff(message), at: utc)
                }
                continue
            }
            guard let channel = options.channels[message.channel] else {
                try store.abandon(message, reason: "no \(message.channel) channel is configured", at: utc)
                emit(JSONLine.make([("t", .number(now)), ("type", .string("error")), ("message", .string("\(message.idempotencyKey): no \(message.channel) channel is configured; not delivered"))]))
                continue
            }
            guard networkUp else {
                emitMessage(message, text: text, delivered: false, attempt: attempt)
                try store.failed(message, retryAfter: backoff(message), at: utc)
                continue
            }
            let outgoing = OutgoingMessage(
                idempotencyKey: message.idempotencyKey, kind: MessageKind(rawValue: message.kind) ?? .alert,
                recipient: message.recipient, text: text, payload: try payload(for: message, text: text), attempt: attempt)
            let outcome = await channel.deliver(outgoing)
            switch outcome {
            case .delivered:
                emitMessage(message, text: text, delivered: true, attempt: attempt)
                report(try store.delivered(message, at: utc))
            case .retryAfter(let seconds, let reason):
                emitMessage(message, text: text, delivered: false, attempt: attempt, reason: reason)
                try store.failed(message, retryAfter: seconds, at: utc)
            case .permanentFailure(let reason):
                emitMessage(message, text: text, delivered: false, attempt: attempt, reason: reason)
                try store.abandon(message, reason: reason, at: utc)
            }
        }
    }

    private func backoff(_ message: OutboxMessage) -> Double {
        min(options.maximumRetry, options.firstRetry * pow(2, Double(message.attempts)))
    }

    /// The machine-readable form of a message: trigger, position with its trust, the positions
    /// before it, speed and heading, the message's sequence number.
    private func payload(for message: OutboxMessage, text: String) throws -> EmergencyPayload {
        let machine = try store.workflow()
        let history = try store.setting("positionHistory", as: [StoredPosition].self) ?? []
        func position(_ p: StoredPosition) -> EmergencyPayload.Position {
            EmergencyPayload.Position(latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy, trusted: true)
        }
        // Keys read msg-<sequence>-<channel>-<recipient>.
        let sequence = Int(message.idempotencyKey.split(separator: "-").dropFirst().first ?? "") ?? 0
        return EmergencyPayload(
            kind: MessageKind(rawValue: message.kind) ?? .alert, text: text, trigger: machine.trigger, isTest: options.isTest,
            timestamp: Date(timeIntervalSince1970: Double(utc) / 1e9), sequence: sequence, deviceID: options.deviceID,
            personID: machine.person?.phone.e164 ?? "unknown", recipient: message.recipient,
            position: history.first.map(position), previousPositions: history.dropFirst().map(position),
            speed: history.first?.speed)
    }

    private func emitMessage(_ message: OutboxMessage, text: String, delivered: Bool, attempt: Int, reason: String? = nil) {
        var fields: [(String, JSONLine.Value)] = [
            ("t", .number(now)), ("type", .string("message")), ("channel", .string(message.channel)), ("to", .string(message.recipient)),
            ("kind", .string(message.kind)), ("text", .string(text)), ("delivered", .bool(delivered)), ("attempt", .int(attempt)),
            ("key", .string(message.idempotencyKey)),
        ]
        if let reason { fields.append(("reason", .string(reason))) }
        emit(JSONLine.make(fields))
    }

    private func text(for message: OutboxMessage) throws -> String {
        let machine = try store.workflow()
        guard let person = machine.person, let kind = MessageKind(rawValue: message.kind) else { return message.kind }
        let stored = try store.setting("lastPosition", as: StoredPosition.self)
        let fix = stored.map {
            GNSSFix(timestampNanoseconds: 0, mode: .threeD, latitude: $0.latitude, longitude: $0.longitude, speed: $0.speed, horizontalAccuracy: $0.accuracy)
        }
        let device = switch machine.trigger {
        case .automaticCrash: "crash detector"
        case .manual where machine.raisedFromKeychain: "keychain"
        case .manual: "safety device"
        default: "fall detector"
        }
        let context = MessageContext(
            person: person, device: device, position: fix, time: Date(timeIntervalSince1970: Double(utc) / 1e9),
            timeZone: options.timeZone, isTest: options.isTest)
        return MessageText.text(kind, context, batteryPercent: try store.setting("batteryPercent", as: Int.self))
    }
}

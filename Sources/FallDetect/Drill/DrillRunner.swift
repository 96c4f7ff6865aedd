import Foundation

/// Runs a drill script on a virtual clock against the real state machine and the real SQLite
/// store: a 30-minute incident takes well under a second. Every second of virtual time is a tick;
/// due messages go out after every step and tick. Output is JSON lines through `emit`.
///
/// Delivery goes through `OutboxDispatcher`, as in the daemon: the built-in console channel
/// records each attempt; contacts that prefer another channel go through the `AlertChannel`
/// configured under that name (a webhook, a GSM modem). `network {up}` marks every channel down or
/// recovered: while down, attempts fail without being made, one probe per channel at a time.
public final class DrillRunner {
    public struct Options: Sendable {
        public var databasePath: String
        /// Wall-clock time at drill second 0 (UTC ns). Fixed by default so outputs are reproducible.
        public var startUTCNanoseconds: Int64 = 1_767_268_800_000_000_000 // 2026-01-01T12:00:00Z
        public var timeZone = TimeZone(identifier: "UTC")!
        /// Marks every message as a test of the alarm chain.
        public var isTest = false
        /// The per-channel backoff while a channel fails: `firstRetry` doubling to `maximumRetry`
        /// (the dispatcher's `RetryPolicy`), never longer than `probeInterval`.
        public var firstRetry: Double = 2
        public var maximumRetry: Double = 15
        /// While a channel fails, one message is tried at least this often (s).
        public var probeInterval: Double = 15
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

    public let options: Options
    private let emit: (String) -> Void
    private var store: WorkflowStore
    private var dispatcher: OutboxDispatcher
    /// Kept in the drill's progress for older databases; the channels' state is the dispatcher's.
    private var networkUp = true
    private var now: Double = 0

    public init(options: Options, emit: @escaping (String) -> Void) throws {
        self.options = options
        self.emit = emit
        store = try WorkflowStore(path: options.databasePath)
        dispatcher = OutboxDispatcher(store: store, options: Self.dispatcherOptions(options))
    }

    static func dispatcherOptions(_ options: Options) -> OutboxDispatcher.Options {
        var channels = options.channels
        // The drill prints every attempt itself; the console channel stays quiet.
        if channels[WorkflowTransaction.localLog.channel] == nil {
            channels[WorkflowTransaction.localLog.channel] = ConsoleChannel(name: WorkflowTransaction.localLog.channel, sink: { _ in })
        }
        var dispatch = OutboxDispatcher.Options(deviceID: options.deviceID, isTest: options.isTest, channels: channels)
        dispatch.retry = RetryPolicy(base: options.firstRetry, maximum: options.maximumRetry, minimum: min(1, options.firstRetry))
        dispatch.probeInterval = options.probeInterval
        dispatch.timeZone = options.timeZone
        return dispatch
    }

    /// Every channel a `network` step switches, console included, in a stable order for the journal.
    private var channelNames: [String] {
        Set(options.channels.keys).union([WorkflowTransaction.localLog.channel]).sorted()
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
                dispatcher = OutboxDispatcher(store: store, options: Self.dispatcherOptions(options))
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
            let position = try tx.lastPosition()
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
            guard try tx.setting("pinHash", as: String.self) != nil else {
                throw FallDetectError(.invalidArgument, "no PIN is set: set_pin first", line: step.line, field: "pin")
            }
            pending += try tx.disarm(pin: pin, at: utc)
        case .position(let latitude, let longitude, let accuracy, let speed):
            pending += try tx.recordFix(StoredPosition(latitude: latitude, longitude: longitude, accuracy: accuracy, speed: speed), at: utc)
        case .network(let up):
            networkUp = up
            for name in channelNames {
                if up { try tx.markChannelUp(name, at: utc) } else { try tx.markChannelDown(name, at: utc) }
            }
        case .battery(let percent):
            try tx.recordKeychainBattery(percent: percent, at: utc)
        case .crash, .advance:
            break
        }
    }

    /// `concealed`: steps the duress PIN hides from the device; the drill shows them, marked.
    private func report(_ actions: [WorkflowAction], concealed: Bool = false) {
        let mark: [(String, JSONLine.Value)] = concealed ? [("concealed", .bool(true))] : []
        for action in actions {
            switch action {
            case .transition(let from, let to, let reason):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("transition")), ("from", .string(from.rawValue)), ("to", .string(to.rawValue)), ("reason", .string(reason))] + mark))
            case .concealed(let inner):
                report([inner], concealed: true)
            case .alarm(let on):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("alarm")), ("on", .bool(on))]))
            case .pinRequired, .ignored, .warning, .showSurvey:
                let text: String = switch action {
                case .pinRequired: "PIN required"
                case .ignored(let why): why
                case .warning(let why): why
                default: "survey shown"
                }
                emit(JSONLine.make([("t", .number(now)), ("type", .string("note")), ("text", .string(text))] + mark))
            case .keychainBeep, .send, .tracking:
                break // sends appear as message lines when delivered or attempted
            }
        }
    }

    /// Each attempt is printed before the dispatcher records it: killed in between, the drill sends
    /// the same message again after restarting, under the same idempotency key, rather than losing it.
    private func deliver() async throws {
        try await dispatcher.deliverDue(at: utc) { event in
            switch event {
            case .attempted(let message, let text, let delivered, let attempt, let reason):
                emitMessage(message, text: text, delivered: delivered, attempt: attempt, reason: reason)
            case .superseded(let message, let newer):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("note")), ("text", .string("\(message.idempotencyKey) superseded by \(newer.idempotencyKey); not sent"))]))
            case .abandoned(let message, let reason):
                emit(JSONLine.make([("t", .number(now)), ("type", .string("error")), ("message", .string("\(message.idempotencyKey): \(reason); not delivered"))]))
            case .workflow(let actions):
                report(actions)
            }
        }
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
}

import Foundation

/// The one place that sends what the workflow asked for, retries, and records the outcome; used
/// by `detectord drill` and the daemon. Not an actor: the caller owns it from one task and calls
/// `deliverDue(at:)` after every input and whenever `nextDue()` says something falls due. The
/// daemon runs one per channel (`Options.lane`), each on its own task, on the same store.
///
/// Rules (docs/workflow.md, "Delivery"):
/// - Backoff is per channel, not per message. While a channel fails, one probe goes out at most
///   every `probeInterval`; once an attempt on it succeeds, or `channelRecovered` is called,
///   everything waiting on it is due at once, alerts first, then by creation.
/// - A follow-up never goes to a recipient before that recipient's alert was delivered. If the
///   alert is abandoned (a permanent failure), the follow-ups go without it, and the journal says
///   so: one rejected message must not silence a guardian who can still be reached.
/// - A newer location update supersedes the older undelivered ones to the same recipient: a
///   contact back online gets the current position once, not a backlog.
///
/// Every decision is written to the store before the next one is made, so a new dispatcher on the
/// same database carries on exactly. Each attempt is made before it is recorded: killed between
/// the two, the same message goes again under the same idempotency key, and nothing is lost.
public final class OutboxDispatcher {
    public struct Options: Sendable {
        /// Marks every payload (and text) as a test of the alarm chain.
        public var isTest = false
        /// Stands in the payload's device_id.
        public var deviceID: String
        /// Per-channel backoff while a channel is failing: the delay after its n-th consecutive
        /// failure is the policy's ceiling (no jitter, so a restart reproduces it), never more than
        /// `probeInterval`, and never less than what the channel itself asked for, up to that cap.
        public var retry = RetryPolicy(base: 2, maximum: 15, minimum: 1)
        /// While a channel fails, one of its messages (`DeliveryOrder`) is tried at least this often (s),
        /// so a channel that comes back is noticed within this time, never after a long backoff.
        public var probeInterval: Double = 15
        /// Channels by name; "console" is a `ConsoleChannel` printing to stdout if absent.
        public var channels: [String: any AlertChannel] = [:]
        /// The contacts' time zone, for the times in message texts.
        public var timeZone = TimeZone(identifier: "UTC") ?? .current
        /// The wall clock (UTC ns), read again after each send: an SMS can take a minute, and the
        /// clock can be set meanwhile, so an outcome is recorded at its own time, never at the
        /// pass's start. Nil (the drill, on its scripted time) keeps `deliverDue`'s time throughout.
        public var clock: (@Sendable () -> Int64)?
        /// The channels whose messages this dispatcher sends (`OutboxLane`): the daemon runs one
        /// dispatcher per channel, the drill one for all.
        public var lane: OutboxLane = .all

        public init(deviceID: String, isTest: Bool = false, channels: [String: any AlertChannel] = [:]) {
            self.deviceID = deviceID
            self.isTest = isTest
            self.channels = channels
        }
    }

    public let options: Options
    private let store: WorkflowStore
    private let channels: [String: any AlertChannel]

    public init(store: WorkflowStore, options: Options) {
        self.store = store
        self.options = options
        var channels = options.channels
        if channels[WorkflowTransaction.localLog.channel] == nil {
            channels[WorkflowTransaction.localLog.channel] = ConsoleChannel(name: WorkflowTransaction.localLog.channel)
        }
        self.channels = channels
    }

    /// Sends everything due at `utc` (UTC ns) in priority order; returns what happened, in order,
    /// including the workflow actions caused by confirmed deliveries (e.g. EMERGENCY_SENT).
    public func deliverDue(at utc: Int64) async throws -> [DispatchReport] {
        var reports: [DispatchReport] = []
        try await deliverDue(at: utc) { reports.append($0) }
        return reports
    }

    /// The same, handing each report to `report` as it happens: an attempt right after the
    /// channel answered and before it is recorded, so a caller that logs it (the drill) shows every
    /// attempt even when killed before the record; the repeat after a restart carries the same key.
    public func deliverDue(at utc: Int64, report: (DispatchReport) -> Void) async throws {
        for superseded in try supersedeStaleFollowUps(at: utc) { report(superseded) }
        var tried: Set<Int64> = []
        var now = utc
        // The pass sends what was queued by its start: what is queued during a slow send (tracking
        // goes on) waits for the next pass, which first supersedes stale follow-ups. Told
        // by id, which no clock step moves; a row made at the pass's own time (the drill's) is
        // as good as queued before it.
        let last = try store.snapshot { try $0.lastOutboxID() }
        while let next = try nextToTry(at: now, eligible: { $0.message.id <= last || $0.createdAt <= utc }, excluding: tried) {
            tried.insert(next.message.id)
            now = try await attempt(next.message, channelDown: next.channelDown, at: now, report: report)
        }
    }

    /// A channel says it is reachable again (network up, modem registered): everything waiting on
    /// it becomes due now, alerts first.
    public func channelRecovered(_ name: String, at utc: Int64) throws {
        try store.transaction { try $0.markChannelUp(name, at: utc) }
    }

    /// A channel says it is down (drill `network {up:false}`): attempts fail without being made.
    public func channelDown(_ name: String, at utc: Int64) throws {
        try store.transaction { try $0.markChannelDown(name, at: utc) }
    }

    /// When the next message falls due (nil when none waits): the caller sleeps until then.
    public func nextDue() throws -> Int64? {
        try store.snapshot { tx in DeliveryOrder.nextDue(try pending(in: tx), health: try tx.channelHealth()) }
    }

    // MARK: Deciding

    /// The waiting messages of this dispatcher's lane. Every rule is per channel (a recipient is
    /// one on one channel), so the lane's messages alone decide what it sends.
    private func pending(in tx: WorkflowTransaction) throws -> [PendingMessage] {
        try tx.pendingMessages().filter { options.lane.contains($0.message.channel) }
    }

    private func nextToTry(
        at utc: Int64, eligible: (PendingMessage) -> Bool, excluding tried: Set<Int64>
    ) throws -> (message: OutboxMessage, channelDown: Bool)? {
        try store.snapshot { tx in
            let health = try tx.channelHealth()
            // Offered to the order, which picks each failing channel's probe among them, so the
            // probe is one this pass may send; the rest still hold follow-ups back.
            let due = DeliveryOrder.due(try pending(in: tx), health: health, at: utc, eligible: eligible)
            guard let next = due.first(where: { !tried.contains($0.message.id) })
            else { return nil }
            return (next.message, health.contains { $0.channel == next.message.channel && $0.isDown })
        }
    }

    /// Follow-ups that only the newest of their kind needs to say: a position that a newer one
    /// replaced, a keychain repeat a newer repeat makes redundant. Queued every few minutes while
    /// the alert cannot go (no signal for hours), they would otherwise arrive as a burst of stale
    /// copies when it can.
    static let replacedByTheNewest: Set<String> = [MessageKind.locationUpdate.rawValue, MessageKind.keychainRepeat.rawValue]

    private func supersedeStaleFollowUps(at utc: Int64) throws -> [DispatchReport] {
        try store.transaction { tx in
            let followUps = try pending(in: tx).filter { Self.replacedByTheNewest.contains($0.message.kind) }
            // Concealed (the duress PIN's) and test messages only replace their own kind: a hidden
            // repeat superseding a visible one would show in the journal.
            struct Slot: Hashable { var recipient: String; var kind: String; var concealed: Bool; var test: Bool }
            func slot(_ m: PendingMessage) -> Slot {
                Slot(recipient: m.recipientKey, kind: m.message.kind, concealed: m.message.isConcealed, test: m.message.isTest)
            }
            var newest: [Slot: OutboxMessage] = [:]
            for followUp in followUps {
                let slot = slot(followUp)
                if (newest[slot]?.id ?? Int64.min) < followUp.message.id { newest[slot] = followUp.message }
            }
            var reports: [DispatchReport] = []
            for followUp in followUps.sorted(by: { $0.message.id < $1.message.id }) {
                guard let latest = newest[slot(followUp)], latest.id != followUp.message.id
                else { continue }
                try tx.supersede(followUp.message, by: latest, at: utc)
                reports.append(.superseded(message: followUp.message, by: latest))
            }
            return reports
        }
    }

    /// The delay before a failing channel's next probe.
    func probeDelay(afterFailures failures: Int, channelAsked hint: Double?) -> Double {
        min(options.probeInterval, max(hint ?? 0, options.retry.ceiling(afterAttempt: failures)))
    }

    // MARK: Sending

    /// Tries one message; returns the time its outcome was recorded at.
    private func attempt(_ message: OutboxMessage, channelDown: Bool, at utc: Int64, report: (DispatchReport) -> Void) async throws -> Int64 {
        let number = message.attempts + 1
        if channelDown {
            let reason = "the \(message.channel) channel is down"
            let text = try store.snapshot { try self.text(for: message, in: $0, at: utc) }
            report(.attempted(message: message, text: text, delivered: false, attempt: number, reason: reason))
            try recordFailure(message, channelAsked: nil, reason: reason, at: utc)
            return utc
        }
        guard let channel = channels[message.channel] else {
            let reason = "no \(message.channel) channel is configured"
            try store.transaction { try $0.abandon(message, reason: journalReason(reason, for: message), at: utc) }
            report(.abandoned(message: message, reason: reason))
            return utc
        }
        let store = self.store
        // A failed save is not reported here: it costs at most a part sent twice after a restart,
        // and the store's trouble shows in the transactions that follow.
        let save: @Sendable (String) -> Void = { progress in try? store.transaction { try $0.saveChannelProgress(progress, of: message) } }
        let outgoing = try store.snapshot { tx in
            let text = try self.text(for: message, in: tx, at: utc)
            return OutgoingMessage(
                idempotencyKey: message.idempotencyKey, kind: MessageKind(rawValue: message.kind) ?? .alert, recipient: message.recipient,
                text: text, payload: try payload(for: message, text: text, in: tx, at: utc), attempt: number,
                progress: ChannelProgress(saved: try tx.channelProgress(of: message), save: save))
        }
        let outcome = await channel.deliver(outgoing)
        let ended = options.clock?() ?? utc
        switch outcome {
        case .delivered:
            report(.attempted(message: message, text: outgoing.text, delivered: true, attempt: number, reason: nil))
            let actions = try store.transaction { try $0.recordDelivery(message, at: ended) }
            if !actions.isEmpty { report(.workflow(actions)) }
        case .retryAfter(let seconds, let reason):
            report(.attempted(message: message, text: outgoing.text, delivered: false, attempt: number, reason: reason))
            try recordFailure(message, channelAsked: seconds, reason: reason, at: ended)
        case .awaitingConfirmation(let seconds, let reason):
            report(.attempted(message: message, text: outgoing.text, delivered: false, attempt: number, reason: reason))
            // Not a failure of the channel: counted as one, the next contact's alert waited for
            // the probe rotation (15 s each, with five SMS contacts over a minute for the last).
            // The channel answered, so a failing one is up again (which makes its waiting messages
            // due at once); then this one waits for its confirmation.
            try store.transaction { tx in
                try tx.markChannelUp(message.channel, at: ended)
                try tx.failed(message, retryAfter: seconds, at: ended)
            }
        case .permanentFailure(let reason):
            report(.attempted(message: message, text: outgoing.text, delivered: false, attempt: number, reason: reason))
            try store.transaction { tx in
                try tx.abandon(message, reason: journalReason(reason, for: message), at: ended)
                // The channel answered: it is reachable, whatever it thought of this message.
                try tx.markChannelUp(message.channel, at: ended)
            }
            report(.abandoned(message: message, reason: reason))
        }
        return ended
    }

    private func recordFailure(_ message: OutboxMessage, channelAsked hint: Double?, reason: String, at utc: Int64) throws {
        try store.transaction { tx in
            let failures = (try tx.channelHealth().first { $0.channel == message.channel }?.failures ?? 0) + 1
            try tx.recordFailedAttempt(message, delay: probeDelay(afterFailures: failures, channelAsked: hint), reason: reason, at: utc)
        }
    }

    /// An abandoned alert's journal line says what becomes of the recipient's follow-ups.
    private func journalReason(_ reason: String, for message: OutboxMessage) -> String {
        guard message.kind == MessageKind.alert.rawValue else { return reason }
        return "\(reason); follow-ups to \(message.recipient) will be sent without it"
    }

    // MARK: Content, built at send time from the store

    /// The human text: a retried alert says what is known when it finally goes out.
    private func text(for message: OutboxMessage, in tx: WorkflowTransaction, at utc: Int64) throws -> String {
        let machine = try tx.workflow()
        guard let person = machine.person, let kind = MessageKind(rawValue: message.kind) else { return message.kind }
        let stored = try tx.lastPosition()
        let fix = stored.map {
            GNSSFix(timestampNanoseconds: 0, mode: .threeD, latitude: $0.latitude, longitude: $0.longitude, speed: $0.speed, horizontalAccuracy: $0.accuracy)
        }
        // A test's later messages go out after protection resumed, so the message says it was one.
        let device = switch machine.trigger {
        case _ where message.isTest: "safety device"
        case .automaticCrash: "crash detector"
        case .manual where machine.raisedFromKeychain: "keychain"
        case .manual, .test: "safety device"
        default: "fall detector"
        }
        // The sensor-fault message says since when: a retry an hour later must not move that on.
        let time = kind == .sensorFault ? try tx.sensorFaultSince() ?? utc : utc
        let context = MessageContext(
            person: person, device: device, position: fix, time: Date(timeIntervalSince1970: Double(time) / 1e9),
            positionTime: stored?.recordedAt.map { Date(timeIntervalSince1970: Double($0) / 1e9) },
            timeZone: options.timeZone, isTest: options.isTest || message.isTest)
        return MessageText.text(kind, context, batteryPercent: try tx.setting("batteryPercent", as: Int.self))
    }

    /// The machine-readable form: trigger, position with its trust, the positions before it,
    /// speed, the message's sequence number.
    private func payload(for message: OutboxMessage, text: String, in tx: WorkflowTransaction, at utc: Int64) throws -> EmergencyPayload {
        let machine = try tx.workflow()
        let history = try tx.positionHistory()
        func position(_ p: StoredPosition) -> EmergencyPayload.Position {
            EmergencyPayload.Position(latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy, trusted: true,
                                      timestamp: p.recordedAt.map { Date(timeIntervalSince1970: Double($0) / 1e9) })
        }
        let sequence = OutboxMessage.sequence(inKey: message.idempotencyKey) ?? 0
        let happened = try tx.eventTime(of: message, at: utc)
        // The emergency's own messages tell the speed and the way the wearer went before it;
        // updates tell them as they are now.
        let kind = MessageKind(rawValue: message.kind) ?? .alert
        let before = [.alert, .keychainRepeat, .duress].contains(kind) ? (try tx.eventPositions() ?? history) : history
        let earlier = before.filter { $0 != history.first }.prefix(2)
        return EmergencyPayload(
            kind: kind, text: text, trigger: machine.trigger, isTest: options.isTest || message.isTest,
            timestamp: Date(timeIntervalSince1970: Double(happened) / 1e9), sequence: sequence, deviceID: options.deviceID,
            personID: machine.person?.phone.e164 ?? "unknown", recipient: message.recipient,
            position: history.first.map(position), previousPositions: earlier.map(position),
            speed: before.first?.speed)
    }
}

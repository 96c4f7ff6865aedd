import FallDetect

/// The conversation with one modem: the open port, and what was sent and reported so far. Used by
/// one thread at a time (`GSMModemChannel` holds it behind a lock on its own queue).
final class ModemSession {
    let path: String
    let baudRate: Int
    let settings: GSMModemSettings
    private var port: SerialPort?
    private var random: SplitMix64
    /// Status reports seen, by message reference. References are 0–255 and wrap: an entry is
    /// removed once used.
    private var reports: [Int: Int] = [:]
    /// Messages with parts sent but not yet settled, by idempotency key.
    private var sent: [String: Submission] = [:]
    /// The attempt number of the message being delivered, for the backoff.
    private var attempt = 1
    /// The last +CSQ reading (0–31, 99 unknown), for the status page.
    private(set) var lastSignal: Int?
    /// The character set the modem was last set to (AT+CSCS, AT+CSMP) since the set-up; parts
    /// of one message may differ.
    private var charset: TextModeSMS.Charset?
    /// The modem printed its start-up lines: it restarted (a brown-out when it transmits, a USB
    /// modem plugged again) and lost its settings, which the next part needs again.
    private var restarted = false
    /// Whether AT+CMGS gives the number's type (145). 27.005 makes the type optional; every modem
    /// we know takes it, but one that refused it would otherwise fail every SMS for ever. Cleared
    /// only when the form without it then worked, so an error of another cause (a restart into
    /// PDU mode, a full memory) does not take the type away.
    private var typesNumbers = true

    /// A message as its parts first went out. The dispatcher writes the text anew for every
    /// attempt (with that moment's time and position); a text of another length would split into
    /// other parts and all of them would go again, so retries send the first text's parts.
    struct Submission {
        var text: String
        var parts: [PartState]
        /// How it was split: a message saved by an older version splits as it did.
        var layout = TextModeSMS.Layout.wholeWords
        /// Keeps `saved` with the message in the outbox (`ChannelProgress`), from its latest attempt.
        var save: @Sendable (String) -> Void = { _ in }
    }

    enum PartState: Equatable {
        case unsent
        /// `final`: no resend for lack of a report before the SMS's validity is over (it was sent
        /// again once already, or the service centre said it is still trying).
        case awaitingReport(reference: Int, since: Double, final: Bool = false)
        case delivered(reference: Int)
        case failed(reference: Int, status: Int)
    }

    /// A reply that ends a command.
    enum Final: Equatable {
        case ok
        case error
        case cms(code: Int?, text: String)
        case cme(code: Int?, text: String)
        case timeout
    }

    /// Ends an attempt early with an outcome.
    struct Stop: Error {
        var outcome: DeliveryOutcome
        /// After a timeout a late reply may still come and be taken for the answer to the next
        /// command; reopening the port (which flushes its input) starts the next attempt clean.
        var closePort = false
    }

    init(path: String, baudRate: Int, settings: GSMModemSettings, seed: UInt64?) {
        self.path = path
        self.baudRate = baudRate
        self.settings = settings
        random = seed.map { SplitMix64(seed: $0) } ?? SplitMix64()
    }

    func close() {
        port?.close()
        port = nil
        charset = nil
    }

    func deliver(_ message: OutgoingMessage) -> DeliveryOutcome {
        guard let number = PhoneNumber(message.recipient) else {
            return .permanentFailure(reason: "\"\(message.recipient)\" is not an E.164 number")
        }
        let key = message.idempotencyKey
        // After a restart, what the outbox kept of the message: parts that went out do not go again.
        if sent[key] == nil, let saved = message.progress.saved, let restored = Submission(saved: saved, now: SerialPort.now()) {
            sent[key] = restored
        }
        sent[key]?.save = message.progress.save
        let text = sent[key]?.text ?? message.text
        let sms = TextModeSMS(text, layout: sent[key]?.layout ?? .wholeWords)
        attempt = max(1, message.attempt)
        do {
            let port = try openPort()
            try drain(port)
            // Reports that came in belong to whichever message owns the reference: settle them all,
            // so a report is used by its own message before a wrapped reference could reuse it.
            for other in Array(sent.keys) { keep(other, settle(sent[other]?.parts ?? [])) }
            var parts = sent[key]?.parts ?? []
            if parts.count != sms.parts.count { parts = Array(repeating: .unsent, count: sms.parts.count) }
            parts = settle(parts)
            keep(key, parts)
            let now = SerialPort.now()
            let toSend = parts.indices.filter { index in
                switch parts[index] {
                case .unsent: true
                case .awaitingReport(_, let since, let final): now - since >= (final ? settings.validity : settings.resendAfter)
                case .delivered, .failed: false
                }
            }
            if !toSend.isEmpty, !parts.contains(where: { if case .failed = $0 { true } else { false } }) {
                try prepare(port)
                for index in toSend {
                    // Restarted since: in PDU mode again, without status reports; set it up anew.
                    if restarted { try prepare(port) }
                    let part = sms.parts[index]
                    try use(part.charset, on: port)
                    // A part sent again for lack of a report is not sent a third time: a phone
                    // switched off for hours would otherwise get a copy every `resendAfter`.
                    let resend = if case .awaitingReport = parts[index] { true } else { false }
                    let reference = try submit(port, to: number, body: TextModeSMS.body(part), charset: part.charset)
                    parts[index] = settings.requireDeliveryReport
                        ? .awaitingReport(reference: reference, since: SerialPort.now(), final: resend)
                        : .delivered(reference: reference)
                    // Saved before the next part goes: a crash now must not send this one again.
                    var submission = sent[key] ?? Submission(text: text, parts: parts, save: message.progress.save)
                    submission.parts = parts
                    sent[key] = submission
                    submission.save(submission.saved)
                }
                parts = try awaitReports(port, parts, of: key)
            } else if parts.contains(where: { if case .awaitingReport = $0 { true } else { false } }) {
                // Only reports are awaited: the modem must still answer (a UART port opens whether
                // or not it is powered), and one that restarted since must route them to us again.
                // Text mode too: a modem back in PDU mode would send the reports as PDUs, unread.
                try expectOK(port, "AT")
                try expectOK(port, "AT+CMGF=1")
                if settings.requireDeliveryReport { try expectOK(port, "AT+CNMI=2,1,0,1,0") }
                restarted = false
            }
            return conclude(message, parts)
        } catch let stop as Stop {
            if stop.closePort {
                // A modem left in text entry (the daemon stopped between the prompt and Ctrl-Z)
                // takes every command as text and never answers: ESC ends the entry.
                try? port?.write([0x1B], timeout: settings.commandTimeout)
                close()
            }
            if case .permanentFailure = stop.outcome { sent[message.idempotencyKey] = nil }
            return stop.outcome
        } catch let error as FallDetectError {
            // The line failed (modem unplugged, reset): reopen on the next attempt.
            close()
            return .retryAfter(seconds: backoff(), reason: "modem on \(path): \(error.description)")
        } catch {
            close()
            return .retryAfter(seconds: backoff(), reason: "modem on \(path): \(error)")
        }
    }

    // MARK: - The AT conversation

    private func openPort() throws(FallDetectError) -> SerialPort {
        if let port { return port }
        let opened = try SerialPort(path: path, baudRate: baudRate)
        port = opened
        return opened
    }

    /// Echo off, numeric errors, text mode, status reports routed to us as +CDS, then the checks
    /// that make sending pointless: no signal, not registered.
    private func prepare(_ port: SerialPort) throws {
        restarted = false
        charset = nil
        try expectOK(port, "AT")
        try expectOK(port, "ATE0")
        try expectOK(port, "AT+CMEE=1")
        try expectOK(port, "AT+CMGF=1")
        if settings.requireDeliveryReport {
            // mode 2, incoming SMS noted as +CMTI, no broadcasts, ds=1: status reports come as +CDS lines.
            try expectOK(port, "AT+CNMI=2,1,0,1,0")
        }
        let (signalLines, _) = try expectOK(port, "AT+CSQ")
        for case .signal(let rssi, _) in signalLines { lastSignal = rssi }
        for case .signal(let rssi, _) in signalLines where rssi == 99 || rssi == 199 {
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "no signal (+CSQ: \(rssi))"))
        }
        let (registrationLines, _) = try expectOK(port, "AT+CREG?")
        for case .registration(let status) in registrationLines where !Self.registered.contains(status) {
            // An LTE-only module (Cat-M, NB-IoT) registers in EPS and may leave the circuit
            // switched +CREG unregistered, while SMS over SGs or IMS still goes.
            if try registeredInEPS(port) { break }
            let meaning = [0: "not searching", 2: "searching", 3: "registration denied", 4: "unknown"][status] ?? "status \(status)"
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "not registered on a network (+CREG: \(meaning))"))
        }
    }

    /// Home, roaming, and their SMS-only forms.
    private static let registered: Set<Int> = [1, 5, 6, 7]

    /// AT+CEREG? says registered; a modem without LTE answers ERROR, which is a no.
    private func registeredInEPS(_ port: SerialPort) throws -> Bool {
        try port.write("AT+CEREG?\r", timeout: settings.commandTimeout)
        var lines: [ModemLine] = []
        let final = try readFinal(port, timeout: settings.commandTimeout) { lines.append($0) }
        // No answer in time closes the port, as for any command: a late one would be read as the next's.
        if final == .timeout { try failIfNotOK(final, during: "AT+CEREG?") }
        guard final == .ok else { return false }
        // Same fields as +CREG's ([<n>,]<stat>[,...]), so the same parse reads them.
        return lines.contains { line in
            guard case .other(let text) = line, text.hasPrefix("+CEREG:"),
                  case .registration(let status) = ModemLine("+CREG:" + text.dropFirst(7)) else { return false }
            return Self.registered.contains(status)
        }
    }

    /// The character set of the part about to go, set when it differs from the last part's.
    private func use(_ wanted: TextModeSMS.Charset, on port: SerialPort) throws {
        guard charset != wanted else { return }
        try expectOK(port, "AT+CSCS=\"\(wanted.rawValue)\"")
        // fo 17 = SMS-SUBMIT with a relative validity period; +32 asks for a status report.
        // vp 167 = 24 h; dcs 0 = GSM 7-bit, 8 = UCS-2.
        let firstOctet = settings.requireDeliveryReport ? 49 : 17
        try expectOK(port, "AT+CSMP=\(firstOctet),167,0,\(wanted == .gsm ? 0 : 8)")
        charset = wanted
    }

    /// AT+CMGS, the prompt, the body and Ctrl-Z; returns the message reference.
    private func submit(
        _ port: SerialPort, to number: PhoneNumber, body: [UInt8], charset: TextModeSMS.Charset, typed: Bool? = nil
    ) throws -> Int {
        let typed = typed ?? typesNumbers
        // Under AT+CSCS="UCS2" every string parameter is UCS-2 hex, the number included.
        let address = charset == .ucs2 ? UCS2Hex.encode(number.e164) : number.e164
        // 145: an international number. 27.005 lets a modem infer it from a leading '+', but a
        // modem reading the UCS-2 hex of '+' ("002B") may not, and sends the number as unknown
        // (129), which the network then takes for a national one.
        try port.write("AT+CMGS=\"\(address)\"\(typed ? ",145" : "")\r", timeout: settings.commandTimeout)
        let promptDeadline = SerialPort.now() + settings.submitTimeout
        waiting: while true {
            switch try port.readPrompt("> ", timeout: promptDeadline - SerialPort.now()) {
            case .prompt:
                // The form without the type worked where the typed one was refused: keep to it.
                if !typed, typesNumbers { typesNumbers = false }
                break waiting
            case .line(let text):
                // A status report for an earlier part, noise, or the error that replaces the prompt.
                let line = ModemLine(text)
                record(line)
                if typed, Self.isFinalError(line) {
                    return try submit(port, to: number, body: body, charset: charset, typed: false)
                }
                try failIfFinal(line, during: "AT+CMGS")
            case .timeout:
                // ESC abandons any half-open text entry so the next command starts clean.
                try port.write([0x1B], timeout: settings.commandTimeout)
                throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "no \"> \" prompt after AT+CMGS within \(settings.submitTimeout) s"), closePort: true)
            }
        }
        try port.write(body + [0x1A], timeout: settings.commandTimeout)
        var reference: Int?
        let final = try readFinal(port, timeout: settings.submitTimeout) { line in
            if case .messageReference(let value) = line {
                reference = value
                // References wrap at 256: a report kept from an earlier SMS with the same number
                // must not confirm this one.
                reports[value] = nil
            }
        }
        try failIfNotOK(final, during: "AT+CMGS")
        guard let reference else {
            // Accepted or not, we cannot match a report to it; sending again risks a duplicate,
            // which is better than an alert that may not have left.
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "the modem answered OK to AT+CMGS without a readable +CMGS reference"))
        }
        return reference
    }

    /// Waits up to `reportWait` for a report on every part still awaiting one.
    private func awaitReports(_ port: SerialPort, _ parts: [PartState], of key: String) throws(FallDetectError) -> [PartState] {
        var parts = settle(parts)
        keep(key, parts)
        let deadline = SerialPort.now() + settings.reportWait
        while parts.contains(where: { if case .awaitingReport = $0 { true } else { false } }) {
            let left = deadline - SerialPort.now()
            guard left > 0, let line = try port.readLine(timeout: left) else { break }
            record(ModemLine(line))
            parts = settle(parts)
            keep(key, parts)
        }
        return parts
    }

    /// Records `parts` as the message's and saves them with it when they changed, as each report
    /// is used: a restart then knows every part delivered, including those of a message whose
    /// delivery the outbox has not recorded yet, and does not send them again.
    private func keep(_ key: String, _ parts: [PartState]) {
        guard var submission = sent[key], submission.parts != parts else { return }
        submission.parts = parts
        sent[key] = submission
        submission.save(submission.saved)
    }

    /// Applies the reports seen so far to the parts awaiting them.
    private func settle(_ parts: [PartState]) -> [PartState] {
        parts.map { part in
            guard case .awaitingReport(let reference, let since, _) = part, let status = reports[reference] else { return part }
            switch SMSErrorClass.report(status) {
            case .stillTrying:
                // The service centre holds it and keeps trying: sending it again adds a copy.
                reports[reference] = nil
                return .awaitingReport(reference: reference, since: since, final: true)
            case .delivered:
                reports[reference] = nil
                return .delivered(reference: reference)
            case .permanentError:
                reports[reference] = nil
                return .failed(reference: reference, status: status)
            case .temporaryError:
                reports[reference] = nil
                return .unsent
            }
        }
    }

    private func conclude(_ message: OutgoingMessage, _ parts: [PartState]) -> DeliveryOutcome {
        var references: [String] = []
        var waiting: [String] = []
        for part in parts {
            switch part {
            case .failed(let reference, let status):
                sent[message.idempotencyKey] = nil
                return .permanentFailure(reason: "the network gave up on SMS ref \(reference) (status report 0x\(String(status, radix: 16)))")
            case .delivered(let reference):
                references.append(String(reference))
            case .awaitingReport(let reference, _, _):
                waiting.append(String(reference))
            case .unsent:
                break
            }
        }
        if references.count == parts.count {
            sent[message.idempotencyKey] = nil
            return .delivered(reference: "sms " + references.joined(separator: ","))
        }
        sent[message.idempotencyKey]?.parts = parts
        if !waiting.isEmpty, waiting.count + references.count == parts.count {
            return .awaitingConfirmation(checkAfter: settings.reportPollInterval, reason: "accepted as SMS ref \(waiting.joined(separator: ",")), no delivery report yet")
        }
        return .retryAfter(seconds: backoff(), reason: "the network failed temporarily to deliver part of the SMS; it will be sent again")
    }

    // MARK: - Reading replies

    @discardableResult
    private func expectOK(_ port: SerialPort, _ command: String) throws -> ([ModemLine], Final) {
        try port.write(command + "\r", timeout: settings.commandTimeout)
        var lines: [ModemLine] = []
        let final = try readFinal(port, timeout: settings.commandTimeout) { lines.append($0) }
        try failIfNotOK(final, during: command)
        return (lines, final)
    }

    /// Reads lines until a final result; status reports met on the way are recorded, everything
    /// else goes to `each` (echoes and noise included: callers look only for what they know).
    private func readFinal(_ port: SerialPort, timeout: Double, _ each: (ModemLine) -> Void) throws(FallDetectError) -> Final {
        let deadline = SerialPort.now() + timeout
        while true {
            let left = deadline - SerialPort.now()
            guard left > 0, let text = try port.readLine(timeout: left) else { return .timeout }
            let line = ModemLine(text)
            switch line {
            case .ok: return .ok
            case .error: return .error
            case .cmsError(let code, let text): return .cms(code: code, text: text)
            case .cmeError(let code, let text): return .cme(code: code, text: text)
            case .statusReport: record(line)
            default:
                record(line)
                each(line)
            }
        }
    }

    /// Status reports that arrived while no message was being sent.
    private func drain(_ port: SerialPort) throws(FallDetectError) {
        while let text = try port.readLine(timeout: 0.01) { record(ModemLine(text)) }
    }

    private func record(_ line: ModemLine) {
        switch line {
        case .statusReport(let reference, let status): reports[reference] = status
        case .other(let text) where Self.startUpLines.contains(where: text.hasPrefix): restarted = true
        default: break
        }
    }

    /// What SIMCom and Quectel modems print when they start: after one, text mode, the character
    /// set and the routing of status reports are back to their defaults.
    static let startUpLines = ["RDY", "+CFUN: 1", "Call Ready", "SMS Ready", "+QIND: SMS DONE", "PB DONE"]

    /// An error that ends the command: ERROR, +CMS ERROR or +CME ERROR.
    private static func isFinalError(_ line: ModemLine) -> Bool {
        switch line {
        case .error, .cmsError, .cmeError: true
        default: false
        }
    }

    private func failIfFinal(_ line: ModemLine, during command: String) throws {
        switch line {
        case .error: try failIfNotOK(.error, during: command)
        case .cmsError(let code, let text): try failIfNotOK(.cms(code: code, text: text), during: command)
        case .cmeError(let code, let text): try failIfNotOK(.cme(code: code, text: text), during: command)
        default: break
        }
    }

    private func failIfNotOK(_ final: Final, during command: String) throws {
        switch final {
        case .ok:
            return
        case .timeout:
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "the modem did not answer \(command) within the timeout"), closePort: true)
        case .error:
            // Plain ERROR says nothing about the cause: assume it may pass.
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "the modem answered ERROR to \(command)"))
        case .cme(let code, let text):
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "+CME ERROR: \(code.map(String.init) ?? text) after \(command)"))
        case .cms(let code, let text):
            if command.hasPrefix("AT+CMGS"), let code, let meaning = SMSErrorClass.permanentCMS[code] {
                throw Stop(outcome: .permanentFailure(reason: "+CMS ERROR: \(code) (\(meaning)) after \(command)"))
            }
            throw Stop(outcome: .retryAfter(seconds: backoff(), reason: "+CMS ERROR: \(code.map(String.init) ?? text) after \(command)"))
        }
    }

    /// A jittered delay for the attempt in progress, so repeated failures back off further.
    private func backoff() -> Double {
        settings.retry.delay(afterAttempt: attempt, using: &random)
    }
}

import Foundation
import Testing
@testable import DeviceLink
import FallDetect
import Synchronization

/// The channel against `ModemSimulator` on a real pseudo-terminal: the same termios, poll and
/// byte stream as a USB modem, with replies the test chooses.
@Suite struct GSMModemChannelTests {
    static let number = "+33612345678"

    static func settings(_ change: (inout GSMModemSettings) -> Void = { _ in }) -> GSMModemSettings {
        var settings = GSMModemSettings()
        // Generous for a loaded 2-core CI machine; the simulator answers in milliseconds.
        settings.commandTimeout = 3
        settings.submitTimeout = 3
        settings.reportWait = 3
        settings.reportPollInterval = 30
        settings.retry = RetryPolicy(base: 30, maximum: 300, minimum: 1)
        change(&settings)
        return settings
    }

    static func message(_ text: String, key: String = "incident-1/alert/+33612345678", attempt: Int = 1, to recipient: String = number) -> OutgoingMessage {
        let payload = EmergencyPayload(
            kind: .alert, text: text, trigger: .automaticFall, isTest: false, timestamp: Date(timeIntervalSince1970: 1_767_268_800),
            sequence: 1, deviceID: "dev-1", personID: "person-1")
        return OutgoingMessage(idempotencyKey: key, kind: .alert, recipient: recipient, text: text, payload: payload, attempt: attempt)
    }

    /// Runs `body` with a simulator and a channel on it, and always stops the simulator.
    func withModem(
        _ behavior: ModemSimulator.Behavior = ModemSimulator.Behavior(), settings: GSMModemSettings = settings(),
        _ body: (ModemSimulator, GSMModemChannel) async throws -> Void
    ) async throws {
        let modem = try ModemSimulator(behavior)
        defer { modem.stop() }
        let channel = GSMModemChannel(devicePath: modem.devicePath, settings: settings, seed: 7)
        try await body(modem, channel)
        await channel.close()
    }

    @Test func gsm7TextIsSentAndConfirmedByItsStatusReport() async throws {
        let text = "ALERT! Jane Doe has activated their fall detector alarm and may be in an emergency situation."
        try await withModem { modem, channel in
            let outcome = await channel.deliver(Self.message(text))
            #expect(outcome == .delivered(reference: "sms 41"))
            let commands = modem.commands
            for expected in ["AT", "ATE0", "AT+CMEE=1", "AT+CMGF=1", "AT+CNMI=2,1,0,1,0", "AT+CSQ", "AT+CREG?", "AT+CSCS=\"GSM\"", "AT+CSMP=49,167,0,0"] {
                #expect(commands.contains(expected), "missing \(expected) in \(commands)")
            }
            #expect(commands.last == "AT+CMGS=\"+33612345678\",145")
            #expect(modem.submitted == [ModemSimulator.Submitted(address: Self.number, charset: "GSM", body: Array(text.utf8), numberType: 145)])
        }
    }

    @Test func gsmOnlyCharactersGoAsTheirGSMCodes() async throws {
        try await withModem { modem, channel in
            let outcome = await channel.deliver(Self.message("Café_$5"))
            #expect(outcome.isDelivered)
            // é = 0x05, _ = 0x11, $ = 0x02 in GSM 03.38; not their ASCII or UTF-8 bytes.
            #expect(modem.submitted.first?.body == [0x43, 0x61, 0x66, 0x05, 0x11, 0x02, 0x35])
        }
    }

    /// A modem that refuses the number's type gets the command without it, at once and from then
    /// on; the SMS still goes.
    @Test func aModemRefusingTheNumberTypeGetsTheCommandWithoutIt() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.refusesNumberType = true
        try await withModem(behavior) { modem, channel in
            #expect(await channel.deliver(Self.message("first")).isDelivered)
            #expect(await channel.deliver(Self.message("second", key: "second")).isDelivered)
            let submits = modem.commands.filter { $0.hasPrefix("AT+CMGS") }
            #expect(submits == ["AT+CMGS=\"+33612345678\",145", "AT+CMGS=\"+33612345678\"", "AT+CMGS=\"+33612345678\""], "\(submits)")
            #expect(modem.submitted.map(\.numberType) == [145, 145])
        }
    }

    @Test func ucs2TextAndNumberGoAsHex() async throws {
        try await withModem { modem, channel in
            let outcome = await channel.deliver(Self.message("Łódź 112"))
            #expect(outcome == .delivered(reference: "sms 41"))
            #expect(modem.commands.contains("AT+CSCS=\"UCS2\""))
            #expect(modem.commands.contains("AT+CSMP=49,167,0,8"))
            let submitted = try #require(modem.submitted.first)
            #expect(submitted.charset == "UCS2")
            #expect(submitted.address == "002B00330033003600310032003300340035003600370038")
            // The hex of '+' does not say international to every modem: the type does.
            #expect(submitted.numberType == 145)
            #expect(String(decoding: submitted.body, as: UTF8.self) == "014100F30064017A0020003100310032")
        }
    }

    @Test func aLongTextGoesAsNumberedSMSEachWithItsReport() async throws {
        let sentence = "Last known location was 12 Rue de Rivoli 48.85661, 2.35222 at 14:05 CET on 22 Nov. "
        let text = String(repeating: sentence, count: 5).trimmingCharacters(in: .whitespaces)
        try await withModem { modem, channel in
            let outcome = await channel.deliver(Self.message(text))
            #expect(outcome == .delivered(reference: "sms 41,42,43"))
            let bodies = modem.submitted.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(bodies.count == 3)
            for (index, body) in bodies.enumerated() {
                #expect(body.hasPrefix("(\(index + 1)/3) "))
                #expect(body.count <= 160)
            }
            #expect(bodies.map { String($0.dropFirst(6)) }.joined() == text)
        }
    }

    @Test func noSignalRetriesWithoutSending() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.rssi = 99
        try await withModem(behavior) { modem, channel in
            let outcome = await channel.deliver(Self.message("Help"))
            guard case .retryAfter(let seconds, let reason) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
            #expect(reason.contains("no signal"))
            #expect((1...30).contains(seconds))
            #expect(modem.submitted.isEmpty)
            #expect(channel.signalDBm == nil, "99 means the modem does not know")
        }
    }

    @Test func theLastSignalReadingIsKeptForTheStatus() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.rssi = 21
        try await withModem(behavior) { _, channel in
            #expect(channel.signalDBm == nil, "nothing is known before the first attempt")
            _ = await channel.deliver(Self.message("Help"))
            #expect(channel.signalDBm == -71)
        }
    }

    @Test func notRegisteredRetriesWithoutSending() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.registration = 2
        try await withModem(behavior) { modem, channel in
            let outcome = await channel.deliver(Self.message("Help"))
            guard case .retryAfter(_, let reason) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
            #expect(reason.contains("not registered") && reason.contains("searching"))
            #expect(!modem.commands.contains { $0.hasPrefix("AT+CMGS") })
        }
    }

    /// An LTE-only module: +CREG (circuit switched) not registered, +CEREG registered. The SMS
    /// goes; with neither registered it waits, as above.
    @Test(arguments: [(1, true), (5, true), (2, false)])
    func registeredOnLTEOnlySends(eps: Int, sends: Bool) async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.registration = 0
        behavior.epsRegistration = eps
        try await withModem(behavior) { modem, channel in
            let outcome = await channel.deliver(Self.message("Help"))
            #expect(modem.commands.contains("AT+CEREG?"))
            #expect(modem.submitted.count == (sends ? 1 : 0), "\(outcome)")
            if case .retryAfter = outcome { #expect(!sends) } else { #expect(sends, "\(outcome)") }
        }
    }

    /// AT+CEREG? unanswered is a modem that did not answer (its port closed, so a late reply
    /// is not read as the next command's), not a modem that is not registered.
    @Test func anUnansweredEPSQuestionIsNoAnswerNotNoNetwork() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.registration = 0
        behavior.unanswered = ["AT+CEREG?"]
        try await withModem(behavior, settings: Self.settings { $0.commandTimeout = 0.5 }) { modem, channel in
            let outcome = await channel.deliver(Self.message("Help"))
            guard case .retryAfter(_, let reason) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
            #expect(reason.contains("did not answer AT+CEREG?"), "\(reason)")
            #expect(modem.submitted.isEmpty)
        }
    }

    @Test(arguments: [
        (38, false), // network out of order: transient
        (42, false), // congestion
        (331, false), // no network service
        (500, false), // unknown error
        (302, false), // operation not allowed: a SIM800 whose SMS service is still starting
        (1, true), // unassigned number: the same SMS will fail again
        (21, true), // short message transfer rejected
        (303, false), // operation not supported, (304) invalid PDU mode parameter, (305) invalid
        (304, false), // text mode parameter: what a modem back in its default mode after a
        (305, false), // restart answers; the modem's state, not the message's
    ])
    func cmsErrorsRetryOrFailForGood(code: Int, permanent: Bool) async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.submitReply = .cmsError(code)
        try await withModem(behavior) { _, channel in
            let outcome = await channel.deliver(Self.message("Help"))
            switch outcome {
            case .permanentFailure(let reason):
                #expect(permanent, "\(code) should retry: \(reason)")
                #expect(reason.contains("+CMS ERROR: \(code)"))
            case .retryAfter(_, let reason):
                #expect(!permanent, "\(code) should be permanent: \(reason)")
                #expect(reason.contains("+CMS ERROR: \(code)"))
            case .delivered, .awaitingConfirmation:
                Issue.record("+CMS ERROR \(code) reported as sent: \(outcome)")
            }
        }
    }

    /// The modem restarted after the first part (a SIM800's transmit peak browns it out): back in
    /// PDU mode it refuses the second part's AT+CMGS. That is its state, not the message's: the
    /// next attempt sets it up again and sends only the second part. It was abandoned for good,
    /// with only "(1/2)" delivered.
    @Test func aModemThatRestartsBetweenPartsIsSetUpAgainAndSendsTheRest() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.restartsAfterFirstSubmit = true
        let text = String(repeating: "Help is needed now. ", count: 12) // 240 characters: two parts
        try await withModem(behavior) { modem, channel in
            let first = await channel.deliver(Self.message(text))
            guard case .retryAfter(_, let reason) = first else {
                Issue.record("the second part's refusal must retry: \(first)")
                return
            }
            #expect(reason.contains("+CMS ERROR: 304"), "\(reason)")
            #expect(modem.submitted.count == 1)
            let second = await channel.deliver(Self.message(text, attempt: 2))
            #expect(second.isDelivered, "\(second)")
            #expect(modem.submitted.count == 2, "the first part is not sent again")
            #expect(modem.submitted.last.map { String(decoding: $0.body, as: UTF8.self).hasPrefix("(2/2) ") } == true)
            let afterRestart = modem.commands.split(separator: "AT+CMGS=\"+33612345678\",145", omittingEmptySubsequences: false).dropFirst(2).first ?? []
            #expect(afterRestart.contains("AT+CMGF=1") && afterRestart.contains("AT+CSCS=\"GSM\""), "set up again: \(afterRestart)")
        }
    }

    /// Only reports are awaited: each poll checks that the modem answers (a UART port opens
    /// whether or not the modem has power) and routes status reports to us again (a modem that
    /// restarted since would keep them, and the SMS would be sent again for want of one).
    @Test func aPollForReportsTalksToTheModem() async throws {
        try await withModemWithoutReports { modem, channel in
            #expect(await channel.deliver(Self.message("Help")) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            let sent = modem.commands.count
            #expect(await channel.deliver(Self.message("Help", attempt: 2)) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            #expect(Array(modem.commands.dropFirst(sent)) == ["AT", "AT+CMGF=1", "AT+CNMI=2,1,0,1,0"])
            modem.update { $0.answers = false }
            let silent = await channel.deliver(Self.message("Help", attempt: 3))
            guard case .retryAfter(_, let reason) = silent else {
                Issue.record("a silent modem is no channel up: \(silent)")
                return
            }
            #expect(reason.contains("did not answer AT"), "\(reason)")
            #expect(modem.submitted.count == 1)
        }
    }

    @Test func plainErrorAfterTheTextRetries() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.submitReply = .error
        try await withModem(behavior) { _, channel in
            guard case .retryAfter(_, let reason) = await channel.deliver(Self.message("Help")) else {
                Issue.record("plain ERROR must retry")
                return
            }
            #expect(reason.contains("ERROR"))
        }
    }

    @Test func aModemThatNeverAnswersTimesOutInsteadOfHanging() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.answers = false
        let settings = Self.settings { $0.commandTimeout = 0.5 }
        try await withModem(behavior, settings: settings) { modem, channel in
            let start = ContinuousClock.now
            let outcome = await channel.deliver(Self.message("Help"))
            let elapsed = ContinuousClock.now - start
            guard case .retryAfter(_, let reason) = outcome else {
                Issue.record("expected a retry, got \(outcome)")
                return
            }
            #expect(reason.contains("did not answer AT"))
            #expect(elapsed < .seconds(10), "a 0.5 s command timeout, not a hang (generous for a loaded machine)")
            #expect(modem.commands == ["AT"])
        }
    }

    @Test func noiseOnTheLineIsIgnored() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.noise = true
        try await withModem(behavior) { modem, channel in
            #expect(await channel.deliver(Self.message("Help")) == .delivered(reference: "sms 41"))
            #expect(modem.submitted.count == 1)
        }
    }

    @Test func aGarbledReferenceRetries() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.submitReply = .garbledReference
        try await withModem(behavior) { _, channel in
            guard case .retryAfter(_, let reason) = await channel.deliver(Self.message("Help")) else {
                Issue.record("an unreadable reference must retry")
                return
            }
            #expect(reason.contains("readable +CMGS reference"))
        }
    }

    /// A modem whose network sends no status report until the test does, and a channel that
    /// waits 0.3 s for one before it answers "no delivery report yet, again in 30 s".
    func withModemWithoutReports(_ body: (ModemSimulator, GSMModemChannel) async throws -> Void) async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings {
            $0.reportWait = 0.3
            $0.reportPollInterval = 30
        }
        try await withModem(behavior, settings: settings, body)
    }

    /// No report for `resendAfter`: the SMS goes once more (the report may be lost), and not a
    /// third time, or a phone switched off for hours would get a copy every ten minutes. A
    /// "still trying" report (the service centre holds it) stops resends at once.
    @Test func anSMSWithoutAReportIsSentAgainOnceOnly() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings {
            $0.reportWait = 0.1
            $0.resendAfter = 0.3
            $0.validity = 2
        }
        try await withModem(behavior, settings: settings) { modem, channel in
            _ = await channel.deliver(Self.message("Help"))
            for attempt in 2...4 {
                try await Task.sleep(for: .milliseconds(400))
                _ = await channel.deliver(Self.message("Help", attempt: attempt))
            }
            #expect(modem.submitted.count == 2, "sent, then once more")
            // Past the validity with still no report (a modem reset lost it): once more.
            try await Task.sleep(for: .milliseconds(1700))
            _ = await channel.deliver(Self.message("Help", attempt: 5))
            #expect(modem.submitted.count == 3, "again once the validity is over")
        }
        try await withModem(behavior, settings: settings) { modem, channel in
            _ = await channel.deliver(Self.message("Help"))
            modem.sendStatusReport(reference: 41, status: 0x20)
            for attempt in 2...3 {
                try await Task.sleep(for: .milliseconds(400))
                _ = await channel.deliver(Self.message("Help", attempt: attempt))
            }
            #expect(modem.submitted.count == 1, "the service centre holds it")
            modem.sendStatusReport(reference: 41, status: 0)
            try await Task.sleep(for: .milliseconds(100))
            #expect(await channel.deliver(Self.message("Help", attempt: 4)) == .delivered(reference: "sms 41"))
        }
    }

    @Test func aLateReportConfirmsWithoutSendingAgain() async throws {
        try await withModemWithoutReports { modem, channel in
            let first = await channel.deliver(Self.message("Help"))
            #expect(first == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            let again = await channel.deliver(Self.message("Help", attempt: 2))
            #expect(again == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            modem.sendStatusReport(reference: 41, status: 0)
            try await Task.sleep(for: .milliseconds(100))
            #expect(await channel.deliver(Self.message("Help", attempt: 3)) == .delivered(reference: "sms 41"))
            #expect(modem.submitted.count == 1)
        }
    }

    /// The daemon restarted while a three-part SMS waited for its reports, one of them in: the
    /// new process, given what the outbox kept, sends no part again, and the reports that come
    /// later confirm the message.
    @Test func afterARestartThePartsThatWentOutAreNotSentAgain() async throws {
        let sentence = "Last known location was 12 Rue de Rivoli 48.85661, 2.35222 at 14:05 CET on 22 Nov. "
        let text = String(repeating: sentence, count: 5).trimmingCharacters(in: .whitespaces)
        let kept = Mutex<String?>(nil)
        let progress = ChannelProgress(saved: nil, save: { state in kept.withLock { $0 = state } })
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings { $0.reportWait = 0.3 }
        let modem = try ModemSimulator(behavior)
        defer { modem.stop() }
        let before = GSMModemChannel(devicePath: modem.devicePath, settings: settings, seed: 7)
        var message = Self.message(text)
        message.progress = progress
        #expect(await before.deliver(message) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41,42,43, no delivery report yet"))
        modem.sendStatusReport(reference: 41, status: 0)
        try await Task.sleep(for: .milliseconds(100))
        message.attempt = 2
        #expect(await before.deliver(message) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 42,43, no delivery report yet"))
        #expect(kept.withLock { $0 }?.hasPrefix("sms-parts3 d41 a42 a43\n") == true, "\(String(describing: kept.withLock { $0 }))")
        await before.close()

        // A new process: its session knows nothing but what the outbox kept.
        let after = GSMModemChannel(devicePath: modem.devicePath, settings: settings, seed: 8)
        message.attempt = 3
        message.text = text + " Now at 14:20."  // the dispatcher writes the text anew
        message.progress = ChannelProgress(saved: kept.withLock { $0 }, save: { state in kept.withLock { $0 = state } })
        #expect(await after.deliver(message) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 42,43, no delivery report yet"))
        modem.sendStatusReport(reference: 42, status: 0)
        modem.sendStatusReport(reference: 43, status: 0)
        try await Task.sleep(for: .milliseconds(100))
        message.attempt = 4
        #expect(await after.deliver(message) == .delivered(reference: "sms 41,42,43"))
        #expect(modem.submitted.count == 3, "no part went twice: \(modem.submitted.map { String(decoding: $0.body.prefix(8), as: UTF8.self) })")
        // Saved before the outbox records the delivery: killed in between, nothing goes again.
        #expect(kept.withLock { $0 }?.hasPrefix("sms-parts3 d41 d42 d43\n") == true, "\(String(describing: kept.withLock { $0 }))")
        await after.close()
    }

    /// What the outbox keeps reads back as it was written; anything else is ignored, never
    /// taken for parts that went out.
    @Test func theSavedSubmissionReadsBack() {
        // A text may hold line breaks, and even look like a saved header.
        let text = "sms-parts d1\nHelp\nat 14:02"
        let submission = ModemSession.Submission(
            text: text, parts: [.unsent, .awaitingReport(reference: 7, since: 1), .awaitingReport(reference: 8, since: 1, final: true),
                                .delivered(reference: 255), .failed(reference: 3, status: 0x70)])
        let read = ModemSession.Submission(saved: submission.saved, now: 99)
        #expect(read?.text == text)
        #expect(read?.parts == [.unsent, .awaitingReport(reference: 7, since: 99), .awaitingReport(reference: 8, since: 99, final: true),
                                .delivered(reference: 255), .failed(reference: 3, status: 0x70)])
        for damaged in ["", "sms-parts2 d41", "sms-parts2\nHelp", "sms-parts2 dx\nHelp", "sms-parts2 a4:1\nHelp", "sms-parts2 uu\nHelp", "other d41\nHelp", "sms-parts2 f3\nHelp"] {
            #expect(ModemSession.Submission(saved: damaged, now: 0) == nil, "\(damaged)")
        }
        #expect(ModemSession.Submission(saved: "sms-parts d1\nHelp", now: 0)?.layout == .oneCharset, "written before a charset per part")
        #expect(ModemSession.Submission(saved: "sms-parts2 d1\nHelp", now: 0)?.layout == .charsetPerPart, "written before whole words")
        #expect(ModemSession.Submission(saved: "sms-parts3 d1\nHelp", now: 0)?.layout == .wholeWords)
    }

    /// An SMS in flight across the upgrade to a charset per part: saved as one UCS-2 text in four
    /// parts, the first delivered. Split the new way it would be three parts of other bounds,
    /// all sent again; split as it was, the three left go, and only they.
    @Test func aMessageSavedBeforeACharsetPerPartKeepsItsParts() async throws {
        let text = "Emergency: João Pereira may have fallen and needs help. Last known location was "
            + "Rua Augusta 100, Lisboa at 14:05. https://www.openstreetmap.org/?mlat=38.71234&mlon=-9.13456#map=17/38.71234/-9.13456"
        let old = TextModeSMS(text, layout: .oneCharset)
        #expect(old.parts.count == 4 && old.parts.allSatisfy { $0.charset == .ucs2 })
        #expect(TextModeSMS(text).parts.count != old.parts.count)
        try await withModem { modem, channel in
            var message = Self.message(text)
            message.progress = ChannelProgress(saved: "sms-parts d7 u u u\n" + text, save: { _ in })
            #expect(await channel.deliver(message).isDelivered)
            let sent = modem.submitted.map { UCS2Hex.decode(String(decoding: $0.body, as: UTF8.self)) ?? "" }
            #expect(sent.map { String($0.prefix(6)) } == ["(2/4) ", "(3/4) ", "(4/4) "], "\(sent)")
            #expect(sent == Array(old.parts.dropFirst().map(\.text)))
        }
    }

    /// The retry's text has another time and a position, and would be two SMS; what is awaiting
    /// its report is the first text's one SMS, which is not sent again.
    @Test func aRetryWithALongerTextDoesNotSendTheMessageAgain() async throws {
        try await withModemWithoutReports { modem, channel in
            let first = await channel.deliver(Self.message("Help at 14:02"))
            #expect(first == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            let longer = "Help at 14:03, last known location " + String(repeating: "47.39515, 8.54124 ", count: 10)
            modem.sendStatusReport(reference: 41, status: 0)
            try await Task.sleep(for: .milliseconds(100))
            #expect(await channel.deliver(Self.message(longer, attempt: 2)) == .delivered(reference: "sms 41"))
            #expect(modem.submitted.count == 1, "\(modem.submitted)")
        }
    }

    /// References wrap at 256, so a report left over from an old SMS may carry the number the
    /// network gives the next one; it must not confirm it.
    @Test func aStaleReportForAReusedReferenceDoesNotConfirm() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings { $0.reportWait = 0.3 }
        behavior.rssi = 99
        try await withModem(behavior, settings: settings) { modem, channel in
            // An attempt that stops at "no signal" leaves the port open; then a report for ref 41
            // arrives that no pending message owns (sent before a restart, say).
            _ = await channel.deliver(Self.message("Help"))
            modem.sendStatusReport(reference: 41, status: 0)
            modem.update { $0.rssi = 20 }
            try await Task.sleep(for: .milliseconds(100))
            let outcome = await channel.deliver(Self.message("Help", attempt: 2))
            #expect(outcome == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
        }
    }

    /// A report that arrives while another message is being sent still confirms its own message.
    @Test func aReportForAnotherPendingMessageIsKeptForIt() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings { $0.reportWait = 0.3 }
        try await withModem(behavior, settings: settings) { modem, channel in
            let first = Self.message("Help", key: "a")
            #expect(await channel.deliver(first) == .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet"))
            modem.sendStatusReport(reference: 41, status: 0)
            try await Task.sleep(for: .milliseconds(100))
            modem.update { $0.statusReport = 0 }
            #expect(await channel.deliver(Self.message("Help", key: "b")) == .delivered(reference: "sms 42"))
            #expect(await channel.deliver(first) == .delivered(reference: "sms 41"))
            #expect(modem.submitted.count == 2)
        }
    }

    /// A set-up command's +CMS ERROR is the modem's state, whatever its code: the message is
    /// sent again later, never dropped for it.
    @Test func aSetUpCommandsCMSErrorRetriesWhateverItsCode() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.setupCMSError = ("AT+CSMP", 305)
        try await withModem(behavior) { modem, channel in
            guard case .retryAfter(_, let reason) = await channel.deliver(Self.message("Help")) else {
                Issue.record("a set-up error dropped the message")
                return
            }
            #expect(reason.contains("+CMS ERROR: 305") && reason.contains("AT+CSMP"), "\(reason)")
            #expect(!modem.commands.contains { $0.hasPrefix("AT+CMGS") })
        }
    }

    @Test func aPermanentStatusReportFailsForGood() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = 0x41 // incompatible destination
        try await withModem(behavior) { _, channel in
            guard case .permanentFailure(let reason) = await channel.deliver(Self.message("Help")) else {
                Issue.record("status 0x41 is permanent")
                return
            }
            #expect(reason.contains("0x41"))
        }
    }

    @Test func aTemporaryStatusReportSendsAgainOnTheNextAttempt() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = 0x62 // SC gave up for now
        try await withModem(behavior) { modem, channel in
            guard case .retryAfter = await channel.deliver(Self.message("Help")) else {
                Issue.record("status 0x62 must retry")
                return
            }
            modem.update { $0.statusReport = 0 }
            #expect(await channel.deliver(Self.message("Help", attempt: 2)) == .delivered(reference: "sms 42"))
            #expect(modem.submitted.count == 2)
        }
    }

    @Test func withoutReportsAcceptanceCounts() async throws {
        var behavior = ModemSimulator.Behavior()
        behavior.statusReport = nil
        let settings = Self.settings { $0.requireDeliveryReport = false }
        try await withModem(behavior, settings: settings) { modem, channel in
            #expect(await channel.deliver(Self.message("Help")) == .delivered(reference: "sms 41"))
            #expect(modem.commands.contains("AT+CSMP=17,167,0,0"))
            #expect(!modem.commands.contains("AT+CNMI=2,1,0,1,0"))
        }
    }

    @Test func aRecipientThatIsNotANumberFailsForGood() async throws {
        try await withModem { modem, channel in
            #expect(await channel.deliver(Self.message("Help", to: "Jane")) == .permanentFailure(reason: "\"Jane\" is not an E.164 number"))
            #expect(modem.commands.isEmpty)
        }
    }

    @Test func aMissingDeviceRetries() async {
        let channel = GSMModemChannel(devicePath: "/nonexistent/ttyUSB9", settings: Self.settings(), seed: 1)
        guard case .retryAfter(_, let reason) = await channel.deliver(Self.message("Help")) else {
            Issue.record("a missing modem must retry: it may be plugged in")
            return
        }
        #expect(reason.contains("/nonexistent/ttyUSB9") && reason.contains("errno 2"))
    }
}

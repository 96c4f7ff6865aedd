import Foundation
import Synchronization
import Testing
@testable import FallDetect

/// The delivery rules against the real SQLite store, with a recording stand-in for the remote
/// receivers on a "pager" channel and a virtual clock run second by second, as the daemon would.
@Suite struct OutboxDispatcherTests {
    let s: Int64 = 1_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")
    let anna = "+447700900456"
    let ben = "+447700900789"

    /// What the dispatcher reported, with the virtual second it happened at.
    struct Event {
        var t: Int64
        var report: DispatchReport

        var attempt: (message: OutboxMessage, delivered: Bool, reason: String?)? {
            if case .attempted(let message, _, let delivered, _, let reason) = report { return (message, delivered, reason) }
            return nil
        }
    }

    private func withDatabase(_ body: (String) async throws -> Void) async throws {
        let dir = try SharedData.temporaryDirectory("dispatcher")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await body(dir + "/detectord.sqlite")
    }

    /// A wearer with `contacts` on the pager channel; a keychain SOS at 0 s goes out at 30 s (the
    /// keychain repeats every 5 min after that: follow-ups).
    private func sendingStore(_ path: String, contacts: [String]) throws -> WorkflowStore {
        let store = try WorkflowStore(path: path)
        for (index, phone) in contacts.enumerated() { try store.saveContact(Contact(name: "Contact \(index)", phone: phone, channel: "pager")) }
        try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
        try store.apply(.sos(fromKeychain: true), at: 0)
        try store.apply(.tick, at: 30 * s)
        return store
    }

    private func dispatcher(_ store: WorkflowStore, pager: RecordingChannel) -> OutboxDispatcher {
        OutboxDispatcher(store: store, options: .init(deviceID: "test-device", channels: ["pager": pager, "console": ConsoleChannel(sink: { _ in })]))
    }

    /// Seconds `from` through `to`: run `step` (inputs for that second), tick the workflow, deliver.
    private func run(
        _ store: WorkflowStore, _ dispatcher: OutboxDispatcher, from: Int64, through to: Int64, step: (Int64) throws -> Void = { _ in }
    ) async throws -> [Event] {
        var events: [Event] = []
        for t in from...to {
            try step(t)
            try store.apply(.tick, at: t * s)
            for report in try await dispatcher.deliverDue(at: t * s) { events.append(Event(t: t, report: report)) }
        }
        return events
    }

    /// The sensor-fault message tells when the fault began (00:00:10), not when an attempt goes
    /// out (00:11:40, after the channel failed for a while).
    @Test func theSensorFaultMessageSaysWhenTheFaultBegan() async throws {
        try await withDatabase { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Anna", phone: anna, channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: true, since: 10 * s, at: 11 * s) }
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 600, at: 611 * s) })
            let pager = RecordingChannel(name: "pager", answer: RecordingChannel.unreachable)
            let dispatcher = dispatcher(store, pager: pager)
            _ = try await dispatcher.deliverDue(at: 611 * s)
            pager.answer(with: RecordingChannel.deliver)
            _ = try await dispatcher.deliverDue(at: 700 * s)
            let texts = pager.received.map(\.text)
            #expect(texts.count == 2 && texts.allSatisfy { $0.contains("no working motion sensor since 00:00 ") }, "\(texts)")
        }
    }

    /// A position 111 m north of the last one per step: far enough for a location update each time.
    private func move(_ store: WorkflowStore, step: Int, at t: Int64) throws {
        let position = StoredPosition(latitude: 51.5 + Double(step) * 0.001, longitude: -0.14, accuracy: 8)
        try store.transaction { try $0.recordPosition(position, at: 0) }
        try store.apply(.position(latitude: position.latitude, longitude: position.longitude), at: t * s)
    }

    private func pagerAttempts(_ events: [Event], to recipient: String? = nil) -> [(t: Int64, kind: String, key: String, delivered: Bool)] {
        events.compactMap { event in
            guard let attempt = event.attempt, attempt.message.channel == "pager", recipient.map({ $0 == attempt.message.recipient }) ?? true
            else { return nil }
            return (event.t, attempt.message.kind, attempt.message.idempotencyKey, attempt.delivered)
        }
    }

    /// The position was recorded two hours before the alert goes (GNSS lost indoors): the text
    /// and the payload tell its own time, not the send time.
    @Test func aStalePositionIsToldWithItsOwnTime() async throws {
        try await withDatabase { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Anna", phone: anna, channel: "pager"))
            try store.transaction { try $0.recordPosition(StoredPosition(latitude: 51.5, longitude: -0.14, accuracy: 8), at: 0) }
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 7200 * s)
            try store.apply(.tick, at: 7230 * s)
            let pager = RecordingChannel(name: "pager")
            _ = try await dispatcher(store, pager: pager).deliverDue(at: 7230 * s)
            let alert = try #require(pager.received.first { $0.kind == .alert })
            #expect(alert.text.contains("Last known location was 51.50000, -0.14000 at 00:00 GMT on 1 Jan."), "\(alert.text)")
            #expect(alert.payload.position?.timestamp == Date(timeIntervalSince1970: 0))
        }
    }

    /// Riding at 8 m/s north when the crash came, then two minutes of countdown at rest: the
    /// alert's speed and earlier positions are the ride's, its position the newest.
    @Test func theAlertTellsTheSpeedAndWayBeforeTheEvent() async throws {
        try await withDatabase { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Anna", phone: anna, channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            for step in 0..<3 {
                _ = try store.transaction { try $0.recordFix(StoredPosition(latitude: 51.5 + Double(step) * 0.0001, longitude: -0.14, accuracy: 5, speed: 8), at: Int64(step) * s) }
            }
            try store.apply(.detection(.automaticCrash), at: 3 * s)
            for t in 4...130 {
                _ = try store.transaction { try $0.recordFix(StoredPosition(latitude: 51.5003, longitude: -0.14, accuracy: 5, speed: 0), at: Int64(t) * s) }
                try store.apply(.tick, at: Int64(t) * s)
            }
            let pager = RecordingChannel(name: "pager")
            _ = try await dispatcher(store, pager: pager).deliverDue(at: 130 * s)
            let alert = try #require(pager.received.first { $0.kind == .alert })
            #expect(alert.payload.speed == 8, "\(String(describing: alert.payload.speed))")
            #expect(alert.payload.previousPositions.map(\.latitude) == [51.5002, 51.5001], "\(alert.payload.previousPositions)")
            #expect(alert.payload.position?.latitude == 51.5003)
        }
    }

    /// An alert that waits 20 minutes for its channel carries the time the countdown ended, not
    /// the retry's: a receiver would place the emergency 20 minutes late.
    @Test func aRetriedAlertsPayloadTellsWhenItWasRaised() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna])
            let pager = RecordingChannel(name: "pager", answer: RecordingChannel.unreachable)
            let dispatcher = dispatcher(store, pager: pager)
            _ = try await dispatcher.deliverDue(at: 30 * s)
            pager.answer(with: RecordingChannel.deliver)
            _ = try await dispatcher.deliverDue(at: 1230 * s)
            let alerts = pager.received.filter { $0.kind == .alert }
            #expect(alerts.count == 2 && alerts.allSatisfy { $0.payload.timestamp == Date(timeIntervalSince1970: 30) }, "\(alerts.map(\.payload.timestamp))")
        }
    }

    // MARK: A channel that comes back gets everything at once, alerts first

    @Test func aChannelBackAfterTwentyMinutesGetsEverythingWithinOneProbeAlertFirst() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna])
            let pager = RecordingChannel(name: "pager", answer: RecordingChannel.unreachable)
            let dispatcher = dispatcher(store, pager: pager)
            let back: Int64 = 30 + 20 * 60
            var moves = 0
            let events = try await run(store, dispatcher, from: 30, through: back + 15) { t in
                if t % 200 == 0 { moves += 1; try move(store, step: moves, at: t) }
                if t == back { pager.answer(with: RecordingChannel.deliver) }
            }
            let attempts = pagerAttempts(events)
            let outage = attempts.filter { $0.t < back }
            #expect(outage.allSatisfy { !$0.delivered && $0.kind == "alert" }, "only the alert is probed while the channel fails")
            let gaps = zip(outage.dropFirst(), outage).map { $0.t - $1.t }
            #expect(gaps.allSatisfy { $0 <= 15 }, "a probe at least every probeInterval: \(gaps)")
            #expect(outage.count <= 1200 / 15 + 5, "one probe per interval, not one attempt per waiting message")

            let after = attempts.filter { $0.t >= back }
            #expect(after.allSatisfy { $0.delivered })
            #expect(after.first?.kind == "alert")
            #expect(after.last.map { $0.t <= back + 15 } == true, "everything within one probe interval of coming back")
            #expect(Set(after.map(\.t)).count == 1, "all at once, in one pass")
            let kinds = after.map(\.kind)
            #expect(kinds.filter { $0 == "keychain_repeat" }.count == 1, "the newest of the four repeats queued during the outage, not a backlog")
            #expect(kinds.filter { $0 == "location_update" }.count == 1, "the current position once, not a backlog")
            #expect(try store.due(at: Int64.max - 1).isEmpty)

            // Tracking runs 30 min from the delivery, not from when sending began.
            let delivery = try #require(after.first?.t)
            let machine = try store.workflow()
            #expect(machine.state == .emergencySent)
            #expect(machine.trackingEndsAt == (delivery + 1800) * s)
            #expect(try store.journal().contains { $0.type == "tracking" && $0.payload == "until " + WorkflowTransaction.isoTime((delivery + 1800) * s) })
        }
    }

    @Test func channelRecoveredMakesEverythingDueAtOnceAndADownChannelIsNotTried() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna])
            let pager = RecordingChannel(name: "pager")
            let dispatcher = dispatcher(store, pager: pager)
            try dispatcher.channelDown("pager", at: 30 * s)
            let down = try await run(store, dispatcher, from: 30, through: 700)
            #expect(pager.received.isEmpty, "attempts on a channel marked down fail without being made")
            #expect(pagerAttempts(down).allSatisfy { !$0.delivered && $0.kind == "alert" })
            #expect(down.first { $0.attempt?.message.channel == "pager" }?.attempt?.reason == "the pager channel is down")
            let probeTime = try #require(try dispatcher.nextDue())
            #expect(probeTime > 700 * s, "the next probe waits")

            try dispatcher.channelRecovered("pager", at: 701 * s)
            #expect(try dispatcher.nextDue() == 30 * s, "everything waiting is due now")
            let back = try await dispatcher.deliverDue(at: 701 * s)
            #expect(pager.received.map(\.kind) == [.alert, .keychainRepeat], "the newer of the two repeats queued while down")
            #expect(back.contains(.workflow([.transition(from: .emergencySending, to: .emergencySent, reason: "delivery confirmed")])))
            #expect(try store.journal().filter { $0.type == "channel" }.map(\.payload) == ["pager|down", "pager|up"])
        }
    }

    /// Probes rotate among the highest-priority messages: Anna's number failing for good (but
    /// transiently, as far as the channel can tell) does not keep Ben's alert waiting.
    @Test func oneFailingRecipientDoesNotStarveTheOthersOnItsChannel() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna, ben])
            let anna = self.anna
            let pager = RecordingChannel(name: "pager") { message in
                message.recipient == anna ? .retryAfter(seconds: 30, reason: "subscriber absent") : .delivered(reference: "ok")
            }
            let events = try await run(store, dispatcher(store, pager: pager), from: 30, through: 50)
            let toBen = pagerAttempts(events, to: ben)
            #expect(toBen.first.map { $0.t == 45 && $0.delivered && $0.kind == "alert" } == true, "Ben's alert is the next probe, 15 s on (the channel asked 30 s; the probe interval caps it)")
            #expect(try store.workflow().state == .emergencySent)
        }
    }

    /// A send that takes 90 s (a modem working through its retries, or the clock set meanwhile)
    /// is recorded when it ended: the next probe waits its delay from then, and the delivery is
    /// stamped with its own time, not the pass's start.
    @Test func anOutcomeIsRecordedAtTheTimeTheSendEnded() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna, ben])
            let anna = self.anna
            let clock = Mutex<Int64>(30 * s)
            let s = self.s
            let pager = RecordingChannel(name: "pager") { message in
                clock.withLock { $0 += 90 * s }
                return message.recipient == anna ? .retryAfter(seconds: 2, reason: "no network") : .delivered(reference: "ok")
            }
            var options = OutboxDispatcher.Options(deviceID: "test-device", channels: ["pager": pager, "console": ConsoleChannel(sink: { _ in })])
            options.clock = { clock.withLock { $0 } }
            let dispatcher = OutboxDispatcher(store: store, options: options)
            _ = try await dispatcher.deliverDue(at: 30 * s)
            #expect(try dispatcher.nextDue() == 122 * s, "the probe 2 s after Anna's failed send ended, at 120 s")
            // The probe: Ben's alert, delivered when it ended; then Anna's again, failing at 302 s.
            clock.withLock { $0 = 122 * s }
            _ = try await dispatcher.deliverDue(at: 122 * s)
            let delivered = try store.journal().filter { $0.type == "delivered" && $0.payload.contains("pager") }
            #expect(delivered.map(\.time) == [212 * s], "\(delivered)")
            #expect(try dispatcher.nextDue() == 304 * s)
        }
    }

    /// A pass sends what was queued by its start: a location update queued during a slow send
    /// waits for the next pass (which first drops stale ones), so a pass never runs on while
    /// tracking keeps queuing.
    @Test func whatIsQueuedDuringAPassWaitsForTheNext() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna])
            let clock = Mutex<Int64>(30 * s)
            let s = self.s
            let pager = RecordingChannel(name: "pager") { message in
                let now = clock.withLock { $0 += 60 * s; return $0 }
                if message.kind == .alert { try? store.transaction { try $0.enqueue(.locationUpdate, at: now - 30 * s) } }
                return .delivered(reference: "ok")
            }
            var options = OutboxDispatcher.Options(deviceID: "test-device", channels: ["pager": pager, "console": ConsoleChannel(sink: { _ in })])
            options.clock = { clock.withLock { $0 } }
            let dispatcher = OutboxDispatcher(store: store, options: options)
            _ = try await dispatcher.deliverDue(at: 30 * s)
            #expect(pager.received.map(\.kind) == [.alert])
            _ = try await dispatcher.deliverDue(at: clock.withLock { $0 })
            #expect(pager.received.map(\.kind) == [.alert, .locationUpdate])
        }
    }

    /// The clock set back 25 s after the alert was queued: its next attempt moves back with the
    /// step, its creation time does not, and it still goes in the next pass rather than when the
    /// clock catches up with its creation.
    @Test func aClockSetBackDoesNotHoldAnAlertBack() async throws {
        try await withDatabase { path in
            let s = self.s
            let store = try sendingStore(path, contacts: [anna])
            try store.transaction { try $0.shiftPendingTimes(by: -25 * s, at: 10 * s) }
            let pager = RecordingChannel(name: "pager")
            var options = OutboxDispatcher.Options(deviceID: "test-device", channels: ["pager": pager, "console": ConsoleChannel(sink: { _ in })])
            options.clock = { 10 * s }
            _ = try await OutboxDispatcher(store: store, options: options).deliverDue(at: 10 * s)
            #expect(pager.received.map(\.kind) == [.alert])
        }
    }

    /// An SMS the network took, its delivery report still to come, is no failure of the channel:
    /// Ben's alert goes in the same second, not a probe (15 s) later.
    @Test func aMessageAwaitingItsConfirmationDoesNotHoldUpTheOthers() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna, ben])
            let anna = self.anna
            let pager = RecordingChannel(name: "pager") { message in
                message.recipient == anna ? .awaitingConfirmation(checkAfter: 30, reason: "accepted as SMS ref 41, no delivery report yet") : .delivered(reference: "ok")
            }
            let events = try await run(store, dispatcher(store, pager: pager), from: 30, through: 40)
            #expect(pagerAttempts(events, to: ben).first.map { $0.t == 30 && $0.delivered } == true, "\(pagerAttempts(events, to: ben))")
            #expect(pagerAttempts(events, to: anna).count == 1, "asked about again after 30 s, not before: \(pagerAttempts(events, to: anna))")
            #expect(try store.snapshot { try $0.channelHealth() }.allSatisfy { $0.channel != "pager" }, "the channel is not failing")
        }
    }

    // MARK: Each contact's first message is the alert

    @Test func followUpsWaitForTheirAlertAndGoWithoutAnAbandonedOne() async throws {
        try await withDatabase { path in
            let store = try sendingStore(path, contacts: [anna, ben])
            let anna = self.anna
            let benReachable = Mutex(false)
            // Anna's number rejects the alert for good; Ben is unreachable until 400 s.
            let pager = RecordingChannel(name: "pager") { message in
                if message.recipient == anna { return message.kind == .alert ? .permanentFailure(reason: "number rejected") : .delivered(reference: "ok") }
                return benReachable.withLock { $0 } ? .delivered(reference: "ok") : .retryAfter(seconds: 30, reason: "no route to host")
            }
            let dispatcher = dispatcher(store, pager: pager)
            let events = try await run(store, dispatcher, from: 30, through: 700) { t in
                if t == 400 { benReachable.withLock { $0 = true } }
            }
            let toBen = pagerAttempts(events, to: ben)
            let firstDelivered = try #require(toBen.firstIndex { $0.delivered })
            #expect(toBen[firstDelivered].kind == "alert")
            #expect(toBen[..<firstDelivered].allSatisfy { $0.kind == "alert" }, "no follow-up before Ben's alert was delivered")
            #expect(toBen.filter { $0.kind == "keychain_repeat" }.map(\.t) == [405, 630], "the repeat queued at 330 waited for the alert")

            let toAnna = pagerAttempts(events, to: anna)
            #expect(toAnna.first.map { $0.kind == "alert" && !$0.delivered } == true)
            #expect(events.contains { if case .abandoned(let message, "number rejected") = $0.report { message.recipient == anna } else { false } })
            // Ben's failing alert keeps the channel on probes until 405 s, but the probe goes round:
            // at 330 it is his alert, tried longest ago; her repeat, queued then, is the next, 15 s on.
            #expect(toAnna.filter { $0.kind == "keychain_repeat" && $0.delivered }.map(\.t) == [345, 630], "her follow-ups go without the alert")
            let line = try #require(try store.journal().first { $0.type == "undeliverable" })
            #expect(line.payload.hasSuffix("|number rejected; follow-ups to \(anna) will be sent without it"))
        }
    }

    // MARK: Undelivered location updates are superseded; decisions survive a restart

    @Test func olderLocationUpdatesAreSupersededAndARestartKeepsEveryDecision() async throws {
        try await withDatabase { path in
            var newestKey = ""
            do {
                let store = try sendingStore(path, contacts: [anna])
                let pager = RecordingChannel(name: "pager", answer: RecordingChannel.unreachable)
                let dispatcher = dispatcher(store, pager: pager)
                // A minute apart: moves closer together are not sent (EmergencyWorkflow).
                let events = try await run(store, dispatcher, from: 30, through: 170) { t in
                    if t == 40 || t == 100 || t == 160 { try move(store, step: Int(t), at: t) }
                }
                let superseded = events.compactMap { event -> (String, String)? in
                    guard case .superseded(let old, let newer) = event.report, old.channel == "pager" else { return nil }
                    return (old.idempotencyKey, newer.idempotencyKey)
                }
                #expect(superseded.count == 2)
                newestKey = try #require(superseded.last?.1)
                #expect(pager.received.allSatisfy { $0.kind == .alert })
                let journal = try store.journal().filter { $0.type == "superseded" }.map(\.payload)
                #expect(journal.filter { $0.contains("-pager-") }.count == 2)
                #expect(journal.last?.hasSuffix("|by \(newestKey)") == true)
                #expect(try dispatcher.nextDue().map { $0 > 170 * s } == true, "the failing channel's next probe is later")
            }

            // A new process on the same database: the channel is still failing, with the same probe time.
            let store = try WorkflowStore(path: path)
            let pager = RecordingChannel(name: "pager")
            let dispatcher = dispatcher(store, pager: pager)
            let probe = try #require(try dispatcher.nextDue())
            let probeSecond = probe / s
            #expect(try await dispatcher.deliverDue(at: probe - 1).isEmpty, "no attempt before the stored probe time")
            #expect(pager.received.isEmpty)
            _ = try await dispatcher.deliverDue(at: probeSecond * s)
            #expect(pager.received.map(\.kind) == [.alert, .locationUpdate], "the probe succeeds, then the current position once")
            #expect(pager.received.last?.idempotencyKey == newestKey)
            #expect(try dispatcher.nextDue() == nil)
        }
    }

    /// What a channel saved of a message (the parts of an SMS that went out) comes back with its
    /// next attempt, in a new process too, so the channel does not send them again.
    @Test func aChannelsProgressComesBackWithTheNextAttemptAfterARestart() async throws {
        try await withDatabase { path in
            do {
                let store = try sendingStore(path, contacts: [anna])
                let pager = RecordingChannel(name: "pager", answer: { message in
                    message.progress.save("part 1 of \(message.idempotencyKey)")
                    return .retryAfter(seconds: 60, reason: "part 2 not yet")
                })
                _ = try await run(store, dispatcher(store, pager: pager), from: 30, through: 31)
                let first = try #require(pager.received.first { $0.kind == .alert })
                #expect(first.progress.saved == nil, "nothing saved before the first attempt")
            }
            let store = try WorkflowStore(path: path)
            let pager = RecordingChannel(name: "pager")
            let dispatcher = dispatcher(store, pager: pager)
            let row = try #require(try store.snapshot { try $0.pendingMessages() }.first { $0.message.kind == MessageKind.alert.rawValue }?.message)
            let probe = try #require(try dispatcher.nextDue())
            _ = try await dispatcher.deliverDue(at: probe)
            let alert = try #require(pager.received.first { $0.kind == .alert })
            #expect(alert.progress.saved == "part 1 of \(alert.idempotencyKey)")
            // Delivered: what the channel kept (an SMS's text holds the position) is not.
            #expect(try store.snapshot { try $0.channelProgress(of: row) } == nil)
        }
    }

    @Test func aChannelMarkedDownStaysDownAfterARestart() async throws {
        try await withDatabase { path in
            do {
                let store = try sendingStore(path, contacts: [anna])
                let dispatcher = dispatcher(store, pager: RecordingChannel(name: "pager"))
                try dispatcher.channelDown("pager", at: 30 * s)
                _ = try await dispatcher.deliverDue(at: 30 * s)
            }
            let store = try WorkflowStore(path: path)
            let pager = RecordingChannel(name: "pager")
            let dispatcher = dispatcher(store, pager: pager)
            let probe = try #require(try dispatcher.nextDue())
            let reports = try await dispatcher.deliverDue(at: probe)
            #expect(pager.received.isEmpty)
            #expect(reports.count == 1)
            if case .attempted(let message, _, let delivered, let attempt, let reason) = reports.first {
                #expect(message.channel == "pager" && !delivered && attempt == 2 && reason == "the pager channel is down")
            } else {
                Issue.record("expected one failed probe, got \(reports)")
            }
        }
    }

    @Test func probeDelaysGrowPerChannelAndAreCappedAtTheProbeInterval() throws {
        let dir = try SharedData.temporaryDirectory("dispatcher-delay")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = OutboxDispatcher.Options(deviceID: "d")
        options.retry = RetryPolicy(base: 2, maximum: 300, minimum: 1)
        options.probeInterval = 15
        let dispatcher = OutboxDispatcher(store: try WorkflowStore(path: dir + "/w.sqlite"), options: options)
        #expect((1...5).map { dispatcher.probeDelay(afterFailures: $0, channelAsked: nil) } == [2, 4, 8, 15, 15])
        #expect(dispatcher.probeDelay(afterFailures: 1, channelAsked: 10) == 10, "a channel's own longer wait is kept…")
        #expect(dispatcher.probeDelay(afterFailures: 1, channelAsked: 600) == 15, "…up to the probe interval")
    }

    /// The daemon's dispatchers each take one lane: the pager's sends only the pager's messages and
    /// says nothing else is due; the lane of unconfigured channels abandons the fax alert, as one
    /// dispatcher for all would, and leaves the pager's alone.
    @Test func aLaneSendsOnlyItsOwnChannelsMessages() async throws {
        try await withDatabase { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Anna", phone: anna, channel: "pager"))
            try store.saveContact(Contact(name: "Ben", phone: ben, channel: "fax"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 40 * s)
            try store.apply(.tick, at: 70 * s)
            let pager = RecordingChannel(name: "pager")
            func lane(_ lane: OutboxLane) -> OutboxDispatcher {
                var options = OutboxDispatcher.Options(deviceID: "test-device", channels: ["pager": pager, "console": ConsoleChannel(sink: { _ in })])
                options.lane = lane
                return OutboxDispatcher(store: store, options: options)
            }
            let lanes: [OutboxLane] = [.channel("console"), .channel("pager"), .allExcept(["console", "pager"])]
            #expect(OutboxLane.lanes(for: ["pager", "console"]) == [.channel("pager"), .allExcept(["pager"])])
            let others = try await lane(lanes[2]).deliverDue(at: 70 * s)
            let abandoned = others.compactMap { if case .abandoned(let m, _) = $0 { m.channel + " " + m.recipient } else { nil } }
            #expect(abandoned == ["fax \(ben)"])
            #expect(others.allSatisfy { if case .attempted = $0 { false } else { true } }, "\(others)")
            #expect(pager.received.isEmpty)
            #expect(try lane(lanes[2]).nextDue() == nil)
            #expect(try lane(lanes[1]).nextDue() == 70 * s, "the pager's alert is due, and only its lane says so")
            let sent = try await lane(lanes[1]).deliverDue(at: 70 * s)
            #expect(pager.received.map(\.recipient) == [anna])
            #expect(sent.allSatisfy { if case .attempted(let m, _, _, _, _) = $0 { m.channel == "pager" } else { true } }, "\(sent)")
        }
    }
}

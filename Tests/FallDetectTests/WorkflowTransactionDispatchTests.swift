import Foundation
import Testing
@testable import FallDetect

/// Positions in a real SQLite store: recorded with their time, deleted after the retention, kept
/// while an emergency needs them.
@Suite struct WorkflowTransactionDispatchTests {
    let s: Int64 = 1_000_000_000
    let hour: Int64 = 3_600_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("positions")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try WorkflowStore(path: dir + "/detectord.sqlite"))
    }

    private func record(_ store: WorkflowStore, _ latitude: Double, at t: Int64) throws {
        try store.transaction { try $0.recordPosition(StoredPosition(latitude: latitude, longitude: -9.1), at: t) }
    }

    @Test func positionsOlderThanTheRetentionAreDeletedWithoutTheirCoordinatesInTheJournal() throws {
        try withStore { store in
            try record(store, 38.1, at: 0)
            try record(store, 38.2, at: 2 * hour)
            try record(store, 38.3, at: 5 * hour)
            #expect(try store.transaction { try $0.positionHistory().map(\.recordedAt) } == [5 * hour, 2 * hour, 0])
            // A day later than the first: the first goes, the two newer stay.
            let first = try store.transaction { try $0.prunePositions(recordedBefore: 1 * hour, at: 25 * hour) }
            #expect(first == 1)
            #expect(try store.transaction { try $0.positionHistory().map(\.latitude) } == [38.3, 38.2])
            #expect(try store.transaction { try $0.lastPosition()?.latitude } == 38.3)
            // Everything expired: nothing of the position is left.
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 6 * hour, at: 30 * hour) } == 3)
            #expect(try store.transaction { try $0.lastPosition() } == nil)
            #expect(try store.transaction { try $0.positionHistory() }.isEmpty)
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 60 * hour, at: 60 * hour) } == 0, "nothing left to delete")
            let notes = try store.journal().filter { $0.type == "positions" }
            #expect(notes.count == 2)
            #expect(notes.allSatisfy { !$0.payload.contains("38.") && !$0.payload.contains("-9.1") }, "\(notes)")
        }
    }

    /// Indoors after an alert, a receiver down to 2D fixes 800 m off wanders 300 m every 10 s
    /// around a wearer lying still: those are no moves. Over 10 minutes of tracking the contacts
    /// get the updates the interval sends (every 5 minutes), not one a minute.
    @Test func poorFixesWanderingWithinTheirErrorSendNoUpdates() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            _ = try store.transaction { try $0.recordFix(StoredPosition(latitude: 51.5, longitude: -0.14, accuracy: 900), at: 0) }
            try store.apply(.sos(fromKeychain: false), at: 0)
            var actions = try store.apply(.tick, at: 30 * s)
            try #require(try store.workflow().isTracking, "tracking from the alert on")
            for step in 1...60 {
                let t = 30 * s + Int64(step) * 10 * s
                let latitude = 51.5 + (step % 2 == 0 ? 0.0027 : -0.0027) // ±300 m
                actions += try store.transaction { try $0.recordFix(StoredPosition(latitude: latitude, longitude: -0.14, accuracy: 800), at: t) }
                actions += try store.apply(.tick, at: t)
            }
            let updates = actions.filter { $0 == .send(.locationUpdate) }.count
            #expect(updates <= 2, "\(updates) location updates in 10 minutes")
            #expect(try store.transaction { try $0.lastPosition()?.accuracy } == 800, "the newest fix is still the last known")
        }
    }

    /// An alert still on its way when the wearer resumed ("I don't need help anymore"), delivered
    /// during the next emergency, confirms nothing of that one: its contact has not heard of it.
    @Test func aLateAlertOfAnEarlierEmergencyDoesNotConfirmTheNextOne() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            func alerts() throws -> [OutboxMessage] {
                try store.snapshot { try $0.pendingMessages() }.map(\.message).filter { $0.channel == "pager" && $0.kind == MessageKind.alert.rawValue }
            }
            try store.apply(.sos(fromKeychain: false), at: 0)
            try store.apply(.tick, at: 30 * s)
            let earlier = try #require(try alerts().first)
            try store.apply(.disarm(.correct), at: 40 * s)
            try store.apply(.survey(.noHelpNeeded), at: 41 * s)
            #expect(try store.workflow().state == .noEmergency)
            try store.apply(.sos(fromKeychain: false), at: 100 * s)
            try store.apply(.tick, at: 130 * s)
            _ = try store.transaction { try $0.delivered(earlier, at: 131 * s) }
            #expect(try store.workflow().state == .emergencySending, "the earlier emergency's alert confirms nothing of this one")
            let current = try #require(try alerts().first { $0.id > earlier.id })
            _ = try store.transaction { try $0.delivered(current, at: 132 * s) }
            #expect(try store.workflow().state == .emergencySent)
        }
    }

    private func pending(_ store: WorkflowStore, _ kind: MessageKind) throws -> [OutboxMessage] {
        try store.snapshot { try $0.pendingMessages() }.map(\.message).filter { $0.channel == "pager" && $0.kind == kind.rawValue }
    }

    /// Anna on the pager; an SOS sent at 30 s whose alert is still on its way when the wearer
    /// answers "I didn't fall" (41 s). Returns that alert.
    private func alertOnItsWayThenDidntFall(_ store: WorkflowStore) throws -> OutboxMessage {
        try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
        try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
        try store.apply(.sos(fromKeychain: false), at: 0)
        try store.apply(.tick, at: 30 * s)
        let alert = try #require(try pending(store, .alert).first)
        try store.apply(.disarm(.correct), at: 40 * s)
        try store.apply(.survey(.didntFall), at: 41 * s)
        return alert
    }

    /// The same, then a keychain SOS at 100 s. Returns the old alert.
    private func endedThenSOSAt100(_ store: WorkflowStore) throws -> OutboxMessage {
        let earlier = try alertOnItsWayThenDidntFall(store)
        try store.apply(.sos(fromKeychain: true), at: 100 * s)
        return earlier
    }

    /// Anna's alert was on its way when the wearer said "I didn't fall", then an SOS began a new
    /// emergency, then the old alert arrived: she gets the new alert, and no all clear of the old
    /// one after it, which would seem to call the new one off.
    @Test func aLateAlertOfAnEndedEmergencyBringsNoAllClearIntoTheNextOne() throws {
        try withStore { store in
            let earlier = try endedThenSOSAt100(store)
            try store.apply(.tick, at: 130 * s)
            #expect(try store.workflow().state == .emergencySending)
            _ = try store.transaction { try $0.delivered(earlier, at: 131 * s) }
            let allClears = try pending(store, .allClear)
            #expect(allClears.isEmpty, "\(allClears)")
            #expect(try pending(store, .alert).count == 1, "the new emergency's alert still goes")
        }
    }

    /// The old alert arrived while the new emergency was still counting down: the old all clear
    /// follows it, and is superseded once the new alert is queued, so it never comes after it.
    @Test func anOldAllClearWaitingIsSupersededByTheNextAlert() throws {
        try withStore { store in
            let earlier = try endedThenSOSAt100(store)
            _ = try store.transaction { try $0.delivered(earlier, at: 110 * s) }
            #expect(try pending(store, .allClear).count == 1, "told of the old emergency's end while the new one counts down")
            try store.apply(.tick, at: 130 * s)
            #expect(try pending(store, .allClear).isEmpty, "superseded by the new alert")
            #expect(try pending(store, .alert).count == 1)
            #expect(try store.journal().contains { $0.type == "superseded" && $0.payload.contains("pager") })
        }
    }

    /// Anna heard of the first emergency; its all clear waited (a failing channel) and the
    /// second emergency's alert superseded it; the second is called off before its alert was
    /// tried. Its all clear goes to Anna, who would otherwise keep a real alert unanswered.
    @Test func anAllClearSupersededByACalledOffAlertIsStillOwed() throws {
        try withStore { store in
            let earlier = try endedThenSOSAt100(store)
            _ = try store.transaction { try $0.delivered(earlier, at: 50 * s) }
            #expect(try pending(store, .allClear).count == 1)
            try store.apply(.tick, at: 130 * s)
            #expect(try pending(store, .allClear).isEmpty, "superseded by the second alert")
            try store.apply(.disarm(.correct), at: 131 * s)
            try store.apply(.survey(.didntFall), at: 132 * s)
            #expect(try pending(store, .allClear).count == 1, "the second all clear stands for both")
        }
        // The same with the first emergency's end a "tracking stopped" (the wearer needed no
        // more help), and the clock set back between the two: told by ids, not times.
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 1000 * s)
            try store.apply(.tick, at: 1030 * s)
            try store.apply(.disarm(.correct), at: 1040 * s)
            try store.apply(.survey(.noHelpNeeded), at: 1041 * s)
            #expect(try pending(store, .trackingStopped).count == 1)
            try store.apply(.sos(fromKeychain: true), at: 100 * s)
            try store.apply(.tick, at: 130 * s)
            #expect(try pending(store, .trackingStopped).isEmpty, "superseded by the second alert")
            try store.apply(.disarm(.correct), at: 131 * s)
            try store.apply(.survey(.didntFall), at: 132 * s)
            #expect(try pending(store, .allClear).count == 1, "owed for the end the second alert superseded")
        }
    }

    /// Anna's alert is on its way (no attempt has ended) when the wearer says "I didn't fall":
    /// she is not counted as told, and her alert is given up. The attempt then ends undelivered:
    /// an SMS the network accepted waits for its report, or a webhook timed out. Either may have
    /// arrived, so she gets the all clear, and her alert never comes due again after it.
    @Test(arguments: [true, false])
    func anAttemptOnItsWayAtTheAllClearIsFollowedByIt(awaitingReport: Bool) throws {
        try withStore { store in
            let alert = try alertOnItsWayThenDidntFall(store)
            #expect(try pending(store, .allClear).isEmpty, "not counted as told: no attempt had ended")
            #expect(try pending(store, .alert).isEmpty, "given up by the all clear")
            try store.transaction { tx in
                if awaitingReport {
                    try tx.failed(alert, retryAfter: 60, at: 45 * s)
                } else {
                    try tx.recordFailedAttempt(alert, delay: 15, reason: "webhook timed out", at: 45 * s)
                }
            }
            #expect(try pending(store, .alert).isEmpty, "never due again after the all clear")
            #expect(try pending(store, .allClear).count == 1, "perhaps told, so told it is over")
        }
    }

    /// Under the duress PIN an SOS alerts the contacts again, hidden; it supersedes nothing, so
    /// the device shows no change and the first alert, still on its way, still goes.
    @Test func aHiddenReAlertSupersedesNothing() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 0)
            try store.apply(.tick, at: 30 * s)
            try store.apply(.disarm(.duress), at: 40 * s)
            try store.apply(.sos(fromKeychain: true), at: 50 * s)
            #expect(try pending(store, .alert).count == 2, "the first alert and the hidden re-alert")
            #expect(try !store.journal().contains { $0.type == "superseded" })
        }
    }

    /// Whatever a hidden emergency sent still goes when a later emergency is called off: the
    /// duress message to Ben, whose phone was off, is not given up by that one's all clear.
    @Test func aLaterAllClearGivesUpNothingAHiddenEmergencySent() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "webhook"))
            try store.saveContact(Contact(name: "Ben", phone: "+447700900789", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 0)
            try store.apply(.tick, at: 30 * s)
            try store.apply(.disarm(.duress), at: 40 * s)
            #expect(try pending(store, .duress).count == 1)
            // Anna hears of it; the hidden emergency tracks for 30 min, then is over.
            for message in try store.snapshot({ try $0.pendingMessages() }).map(\.message) where message.channel == "webhook" {
                _ = try store.delivered(message, at: 41 * s)
            }
            try store.apply(.tick, at: 41 * s + 31 * 60 * s)
            let ended = try store.workflow()
            #expect(ended.state == .noEmergency, "\(ended)")
            // A new emergency, called off.
            let t = 41 * s + 32 * 60 * s
            try store.apply(.sos(fromKeychain: false), at: t)
            try store.apply(.tick, at: t + 30 * s)
            try store.apply(.disarm(.correct), at: t + 31 * s)
            try store.apply(.survey(.didntFall), at: t + 32 * s)
            #expect(try store.journal().contains { $0.type == "undeliverable" && $0.payload.contains("superseded by the all clear") },
                    "the new alert to Ben is given up")
            #expect(try pending(store, .duress).count == 1, "the hidden emergency's duress message still goes")
        }
    }

    /// What a channel saves of a message is kept while the message may go out, and never after:
    /// a channel still busy with an alert the all clear abandoned must not leave its text behind.
    @Test func aChannelsProgressIsKeptOnlyWhileTheMessageMayGoOut() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: true), at: 0)
            try store.apply(.tick, at: 30 * s)
            let alert = try #require(try store.snapshot { try $0.pendingMessages() }.first { $0.message.channel == "pager" }?.message)
            try store.transaction { try $0.saveChannelProgress("sms-parts a41\nHelp", of: alert) }
            #expect(try store.snapshot { try $0.channelProgress(of: alert) } == "sms-parts a41\nHelp")
            try store.transaction { try $0.abandon(alert, reason: "test", at: 40 * s) }
            #expect(try store.snapshot { try $0.channelProgress(of: alert) } == nil)
            try store.transaction { try $0.saveChannelProgress("sms-parts d41\nHelp", of: alert) }
            #expect(try store.snapshot { try $0.channelProgress(of: alert) } == nil, "a save after the message was given up is ignored")
        }
    }

    @Test func anEmergencyKeepsTheLastKnownPositionHoweverOld() throws {
        try withStore { store in
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try record(store, 38.7, at: 0)
            try store.apply(.detection(.automaticFall), at: 48 * hour)
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 24 * hour, at: 48 * hour) } == 0)
            #expect(try store.transaction { try $0.lastPosition()?.latitude } == 38.7)
        }
    }

    /// Resumed while the alert still retries (a contact's phone off): the alert, sent later, must
    /// still say where the wearer was. Not for ever: once the alert has waited the whole
    /// retention, the position goes, the workflow's saved copy with it.
    @Test func aPositionStaysWhileAnEmergencysMessageIsOnItsWayForTheRetentionAtMost() throws {
        try withStore { store in
            try store.saveContact(Contact(name: "Anna", phone: "+447700900456", channel: "pager"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.transaction { tx in
                try tx.recordPosition(StoredPosition(latitude: 38.7, longitude: -9.1), at: 0)
                try tx.apply(.position(latitude: 38.7, longitude: -9.1), at: 0)
            }
            try store.apply(.sos(fromKeychain: false), at: 0)
            try store.apply(.tick, at: 30 * s)
            try store.apply(.disarm(.correct), at: 40 * s)
            try store.apply(.survey(.noHelpNeeded), at: 41 * s)
            #expect(try store.workflow().state == .noEmergency)
            let pending = try store.snapshot { try $0.pendingMessages() }.map(\.message)
            #expect(pending.contains { $0.kind == MessageKind.alert.rawValue })
            // The position (0 s) is past a retention that ends at 20 s; the alert (30 s) is not.
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 20 * s, at: 24 * hour + 20 * s) } == 0, "the alert still needs it")
            #expect(try store.transaction { try $0.lastPosition()?.latitude } == 38.7)
            // The alert (30 s) and the "tracking stopped" of the resume (41 s) have both waited it.
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 42 * s, at: 24 * hour + 42 * s) } == 2, "the messages waited the retention")
            #expect(try store.snapshot { try $0.pendingMessages() }.contains { $0.message.kind == MessageKind.alert.rawValue }, "still on its way")
            let saved = String(decoding: try JSONEncoder().encode(try store.workflow()), as: UTF8.self)
            #expect(!saved.contains("38.7") && !saved.contains("-9.1"), "\(saved)")
        }
    }

    /// A database written before positions had a time: its position counts as expired.
    @Test func aPositionWithoutATimeIsExpired() throws {
        try withStore { store in
            try store.transaction { tx in
                try tx.setSetting("lastPosition", StoredPosition(latitude: 1, longitude: 2))
                try tx.setSetting("positionHistory", [StoredPosition(latitude: 1, longitude: 2)])
            }
            #expect(try store.transaction { try $0.prunePositions(recordedBefore: 0, at: 0) } == 2)
        }
    }
}

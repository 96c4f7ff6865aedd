import Foundation
import Testing
@testable import FallDetect

@Suite struct WorkflowStoreTests {
    let s: Int64 = 1_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    private func withStore(_ body: (String) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("store")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir + "/detectord.sqlite")
    }

    @Test func aRestartResumesTheCountdownWithTheRightTimeLeft() throws {
        try withStore { path in
            do {
                let store = try WorkflowStore(path: path)
                try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
                try store.apply(.detection(.automaticFall), at: 10 * s)
            }
            // A new process opening the same file.
            let reopened = try WorkflowStore(path: path)
            let machine = try reopened.workflow()
            #expect(machine.state == .alertCountdown)
            #expect(machine.countdownRemaining(at: 70 * s) == 60)
            let actions = try reopened.apply(.tick, at: 130 * s)
            #expect(actions.contains(.send(.alert)))
        }
    }

    /// A database that cannot be written is run from a copy in memory: it holds what the file
    /// held, takes what happens now, and leaves the file as it was.
    @Test func aCopyInMemoryHoldsWhatTheFileHeldAndLeavesItAlone() throws {
        try withStore { path in
            do {
                let store = try WorkflowStore(path: path)
                try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
                try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
            }
            let journalled = try WorkflowStore(path: path).journal().count
            let copy = try WorkflowStore.inMemoryCopy(of: path)
            #expect(!copy.isDurable)
            #expect(try copy.contacts().map(\.name) == ["Bob"])
            #expect(try copy.workflow().person == person)
            try copy.apply(.detection(.automaticFall), at: 10 * s)
            #expect(try copy.workflow().state == .alertCountdown)
            #expect(try WorkflowStore(path: path).workflow().state == .noEmergency, "the file is left as it was")
            #expect(try WorkflowStore(path: path).journal().count == journalled)
        }
    }

    @Test func aMissingFileGivesAnEmptyStoreInMemory() throws {
        try withStore { path in
            let copy = try WorkflowStore.inMemoryCopy(of: path + ".missing")
            #expect(try copy.contacts().isEmpty && copy.workflow().state == .noEmergency)
            #expect(!FileManager.default.fileExists(atPath: path + ".missing"))
        }
    }

    /// A file that is there but cannot be read (damaged, or not a database) may hold a PIN: the
    /// empty copy does not open set-up to whoever reaches the page. A missing file is a new
    /// device, whose set-up is open.
    @Test func aFileThatCannotBeReadClosesSetUpWithoutAPIN() throws {
        try withStore { path in
            let damaged = path + ".damaged"
            try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: damaged))
            let copy = try WorkflowStore.inMemoryCopy(of: damaged)
            let change = SetupChange.pin("4821")
            #expect(throws: FallDetectError.self) { try copy.transaction { try $0.setUp(change, pin: nil, at: 0) } }
            #expect(try copy.transaction { try $0.isSetUp() } == false)
            let fresh = try WorkflowStore.inMemoryCopy(of: path + ".missing")
            let outcome = try fresh.transaction { try $0.setUp(change, pin: nil, at: 0) }
            guard case .done = outcome else {
                Issue.record("a new device's set-up is open: \(outcome)")
                return
            }
        }
    }

    /// A restart whose file gives `contacts` during the emergency, then the wearer's cancel: the
    /// all clears queued.
    private func allClearsAfterTheFileGives(_ store: WorkflowStore, contacts: [Contact]) throws -> [OutboxMessage] {
        let settings = try store.workflow().settings
        _ = try store.transaction { tx in
            try tx.adopt(person: nil, contacts: contacts, pinHash: nil, settings: settings, gnssConfigured: true, at: 130 * s)
        }
        try store.setSetting("pinHash", PINHasher.hash("2468"))
        try store.apply(.disarm(.correct), at: 140 * s)
        try store.apply(.cancel, at: 141 * s)
        return try store.due(at: 10_000 * s).filter { $0.kind == "all_clear" }
    }

    /// A store whose fall alert has just been queued for the log, Bob (sms) and Eve (webhook).
    private func sendingToBobAndEve(_ path: String) throws -> WorkflowStore {
        let store = try WorkflowStore(path: path)
        try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
        try store.saveContact(Contact(name: "Eve", phone: "+33698765432", channel: "webhook"))
        try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
        try store.apply(.detection(.automaticFall), at: 0)
        try store.apply(.tick, at: 120 * s)
        return store
    }

    @Test func waitingLeavesOutWhatWasDeliveredOrAbandoned() throws {
        try withStore { path in
            let store = try sendingToBobAndEve(path)
            let queued = try store.waiting()
            #expect(queued.count == 3) // the log, Bob, Eve
            try store.delivered(queued[0], at: 121 * s)
            try store.abandon(queued[1], reason: "the number does not exist", at: 121 * s)
            try store.failed(queued[2], retryAfter: 30, at: 121 * s)
            #expect(try store.waiting().map(\.id) == [queued[2].id], "a retry later still waits; delivered and abandoned do not")
            #expect(try store.due(at: Int64.max).count == 2, "due(at:) still reaches the abandoned one at the end of time")
        }
    }

    @Test func sendingQueuesOneKeyedMessagePerRecipient() throws {
        try withStore { path in
            let store = try sendingToBobAndEve(path)

            let due = try store.due(at: 120 * s)
            #expect(due.map(\.recipient) == ["log", "+33612345678", "+33698765432"])
            #expect(due.map(\.channel) == ["console", "sms", "webhook"])
            #expect(Set(due.map(\.idempotencyKey)).count == 3)
            #expect(due.allSatisfy { $0.kind == "alert" })

            // The console copy does not count as reaching a contact; the SMS does, once.
            #expect(try store.delivered(due[0], at: 121 * s).isEmpty)
            #expect(try store.workflow().state == .emergencySending)
            #expect(try store.delivered(due[1], at: 122 * s) == [.transition(from: .emergencySending, to: .emergencySent, reason: "delivery confirmed")])
            #expect(try store.delivered(due[1], at: 123 * s).isEmpty, "a second confirmation changes nothing")
            #expect(try store.due(at: 200 * s).map(\.recipient) == ["+33698765432"])
        }
    }

    @Test func failedMessagesWaitForTheirRetry() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.sos(fromKeychain: false), at: 0)
            try store.apply(.tick, at: 30 * s)
            let sms = try #require(try store.due(at: 30 * s).first { $0.channel == "sms" })
            try store.failed(sms, retryAfter: 10, at: 31 * s)
            #expect(try store.due(at: 40 * s).allSatisfy { $0.channel != "sms" })
            let retry = try #require(try store.due(at: 41 * s).first { $0.channel == "sms" })
            #expect(retry.attempts == 1)
            #expect(retry.idempotencyKey == sms.idempotencyKey)
        }
    }

    @Test func theJournalRecordsEveryActionInOrder() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
            try store.apply(.detection(.automaticCrash), at: 5 * s)
            try store.apply(.imFine, at: 9 * s)
            let lines = try store.journal().map { "\($0.time / s) \($0.type) \($0.payload)" }
            #expect(lines == [
                "0 warning no GNSS source is configured: alerts will carry no location",
                "5 transition NO_EMERGENCY>ALERT_COUNTDOWN|crash detected", "5 alarm on", "5 beep on",
                "9 alarm off", "9 beep off", "9 transition ALERT_COUNTDOWN>NO_EMERGENCY|I'm fine",
            ])
        }
    }

    @Test func contactsAreLimitedAndReplacedByNumber() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            for i in 0..<5 { try store.saveContact(Contact(name: "C\(i)", phone: "+3361234567\(i)")) }
            #expect(throws: FallDetectError.self) { try store.saveContact(Contact(name: "Six", phone: "+33612345679")) }
            try store.saveContact(Contact(name: "Renamed", phone: "+33612345670", channel: "webhook"))
            let contacts = try store.contacts()
            #expect(contacts.count == 5)
            #expect(contacts[0].name == "Renamed" && contacts[0].channel == "webhook")
            try store.removeContact(phone: contacts[0].phone)
            #expect(try store.contacts().count == 4)
        }
    }

    @Test func onceAPINIsSetChangingContactsNeedsIt() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.setSetting("pinHash", PINHasher.hash("2468"))
            let eve = try Contact(name: "Eve", phone: "+33698765432")
            #expect { try store.saveContact(eve) } throws: { ($0 as? FallDetectError)?.message == "this change needs the PIN" }
            #expect { try store.saveContact(eve, pin: "1111") } throws: { ($0 as? FallDetectError)?.message == "wrong PIN" }
            #expect { try store.removeContact(phone: PhoneNumber("+33612345678")!) } throws: { ($0 as? FallDetectError)?.field == "pin" }
            try store.saveContact(eve, pin: "2468")
            try store.removeContact(phone: PhoneNumber("+33612345678")!, pin: "2468")
            #expect(try store.contacts().map(\.name) == ["Eve"])
        }
    }

    @Test func incidentsRecordEachEmergencyAndHowItEnded() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.detection(.automaticFall), at: 10 * s)
            try store.apply(.imFine, at: 20 * s)
            try store.apply(.sos(fromKeychain: false), at: 100 * s)
            try store.apply(.tick, at: 130 * s)
            let incidents = try store.incidents()
            #expect(incidents.count == 2)
            #expect(incidents[0].trigger == "automatic_fall" && incidents[0].endedAt == 20 * s && incidents[0].outcome == "I'm fine" && incidents[0].sentAt == nil)
            #expect(incidents[1].trigger == "manual" && incidents[1].sentAt == 130 * s && incidents[1].endedAt == nil)
        }
    }

    /// Told, perhaps told (an attempt failed, but an SMS may arrive without its report) and never
    /// tried: the all clear goes to the first two, and to the third only if the alert that was on
    /// its way when the wearer cancelled arrives after all.
    @Test func theAllClearGoesToWhoeverWasOrMayHaveBeenToldAndStopsPendingRetries() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Told", phone: "+33612345678"))
            try store.saveContact(Contact(name: "Perhaps", phone: "+33698765432"))
            try store.saveContact(Contact(name: "On its way", phone: "+33611111111"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.detection(.automaticFall), at: 0)
            try store.apply(.tick, at: 120 * s)
            let due = try store.due(at: 120 * s)
            try store.delivered(try #require(due.first { $0.recipient == "+33612345678" }), at: 121 * s)
            try store.failed(try #require(due.first { $0.recipient == "+33698765432" }), retryAfter: 30, at: 121 * s)
            let onItsWay = try #require(due.first { $0.recipient == "+33611111111" })
            try store.setSetting("pinHash", PINHasher.hash("2468"))
            try store.apply(.disarm(.correct), at: 130 * s)
            try store.apply(.cancel, at: 131 * s)

            var later = try store.due(at: 10_000 * s)
            #expect(later.filter { $0.kind == "all_clear" }.map(\.recipient).sorted() == ["+33612345678", "+33698765432", "log"])
            #expect(!later.contains { $0.kind == "alert" }, "no alert is retried after the all clear")
            #expect(try store.journal().contains { $0.type == "undeliverable" && $0.payload.hasSuffix("superseded by the all clear") })

            try store.delivered(onItsWay, at: 132 * s)
            later = try store.due(at: 10_000 * s)
            #expect(later.filter { $0.kind == "all_clear" }.map(\.recipient).sorted() == ["+33611111111", "+33612345678", "+33698765432", "log"])
        }
    }

    /// The set-up's test alarm reached everyone; the fall's alert then reached only Bob before
    /// the wearer cancelled. The all clear goes to Bob alone: Eve never heard of this emergency.
    /// And a sensor fault waiting to be told still goes: the all clear answers only for the
    /// emergency's own messages.
    @Test func theAllClearAnswersOnlyForThisEmergency() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.saveContact(Contact(name: "Eve", phone: "+33698765432"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.testAlarm, at: 0)
            try store.apply(.tick, at: 31 * s)
            for message in try store.due(at: 31 * s) { try store.delivered(message, at: 32 * s) }
            #expect(try store.workflow().state == .noEmergency, "the test ended on its delivery")

            try store.apply(.detection(.automaticFall), at: 100 * s)
            try store.apply(.tick, at: 220 * s)
            let due = try store.due(at: 220 * s)
            try store.failed(try #require(due.first { $0.recipient == "+33612345678" && $0.kind == "alert" }), retryAfter: 30, at: 221 * s)
            try store.transaction { try $0.enqueue(.sensorFault, at: 222 * s) }
            try store.setSetting("pinHash", PINHasher.hash("2468"))
            try store.apply(.disarm(.correct), at: 230 * s)
            try store.apply(.cancel, at: 231 * s)

            let later = try store.due(at: 10_000 * s)
            #expect(later.filter { $0.kind == "all_clear" }.map(\.recipient).sorted() == ["+33612345678", "log"], "\(later.map(\.idempotencyKey))")
            #expect(later.contains { $0.kind == "sensor_fault" }, "the sensor fault is still told")
            #expect(!later.contains { $0.kind == "alert" })
        }
    }

    /// The file's contacts changed at a restart during the emergency (one dropped, one given a
    /// new number): whoever was told still hears that it is over, where they were told.
    @Test func theAllClearReachesWhoeverWasToldThoughNoLongerAContact() throws {
        try withStore { path in
            let store = try sendingToBobAndEve(path)
            for message in try store.due(at: 120 * s) { try store.delivered(message, at: 121 * s) }
            let ends = try allClearsAfterTheFileGives(store, contacts: [try Contact(name: "Bob", phone: "+33611111111")])
            #expect(ends.map { "\($0.channel) \($0.recipient)" }.sorted() == ["console log", "sms +33612345678", "webhook +33698765432"],
                    "\(ends.map(\.idempotencyKey))")
        }
    }

    /// A former contact whose alert was given up before any try (its channel gone) heard nothing,
    /// and needs no all clear.
    @Test func aFormerContactNeverTriedGetsNoAllClear() throws {
        try withStore { path in
            let store = try sendingToBobAndEve(path)
            for message in try store.due(at: 120 * s) {
                if message.channel == "webhook" { try store.abandon(message, reason: "no such channel", at: 121 * s) } else { try store.delivered(message, at: 121 * s) }
            }
            let ends = try allClearsAfterTheFileGives(store, contacts: [try Contact(name: "Bob", phone: "+33612345678")])
            #expect(ends.map { "\($0.channel) \($0.recipient)" }.sorted() == ["console log", "sms +33612345678"], "\(ends.map(\.idempotencyKey))")
        }
    }

    /// A database made anew, or a copy in memory that is never written back, starts its message
    /// sequence again: the keys must still be new to a receiver that remembers every key.
    @Test func messageKeysAreNewInANewDatabaseAndInACopyInMemory() throws {
        try withStore { path in
            func firstAlertKey(_ store: WorkflowStore) throws -> String {
                try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
                try store.apply(.detection(.automaticFall), at: 0)
                try store.apply(.tick, at: 120 * s)
                return try #require(try store.due(at: 120 * s).first { $0.kind == "alert" && $0.recipient == "+33612345678" }).idempotencyKey
            }
            let file = try WorkflowStore(path: path)
            try file.saveContact(Contact(name: "Told", phone: "+33612345678"))
            let copy = try WorkflowStore.inMemoryCopy(of: path)
            let anew = try WorkflowStore(path: path + "-anew.sqlite")
            try anew.saveContact(Contact(name: "Told", phone: "+33612345678"))
            let keys = try [file, copy, anew].map(firstAlertKey)
            #expect(keys.allSatisfy { $0.hasPrefix("msg-1-sms-+33612345678-") }, "\(keys)")
            #expect(Set(keys).count == 3, "\(keys)")
        }
    }

    @Test func aContactRowThatNoLongerReadsIsSkippedNotEveryone() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Broken", phone: "+33612345678"))
            try store.saveContact(Contact(name: "Fine", phone: "+33698765432"))
            try store.transaction { try $0.db.execute(sql: "UPDATE contact SET phone = 'call me' WHERE name = 'Broken'") }
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.detection(.automaticFall), at: 0)
            try store.apply(.tick, at: 120 * s)
            #expect(try store.due(at: 120 * s).filter { $0.kind == "alert" }.map(\.recipient).sorted() == ["+33698765432", "log"])
            #expect(try store.journal().contains { $0.type == "contact_unreadable" && $0.payload.contains("call me") })
        }
    }

    @Test func aFileThatIsNotADatabaseIsAClearError() throws {
        try withStore { path in
            try "not sqlite".write(toFile: path, atomically: true, encoding: .utf8)
            #expect { try WorkflowStore(path: path) } throws: { ($0 as? FallDetectError)?.path == path }
        }
    }

    /// The history the page lists without the PIN shows a duress disarm exactly as a correct one:
    /// the incident ended "disarmed with the PIN", nothing sent. The alert and the duress message
    /// are queued all the same, marked as concealed.
    @Test func theHistoryShowsADuressDisarmAsACorrectOne() throws {
        func history(_ verdict: PINVerdict, in path: String) throws -> (IncidentHistory?, [OutboxMessage]) {
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.detection(.automaticFall), at: 10 * s)
            try store.apply(.disarm(verdict), at: 20 * s)
            try store.apply(.tick, at: 21 * s)
            return (try store.incidentHistory().first, try store.waiting())
        }
        try withStore { path in
            let (real, realWaiting) = try history(.correct, in: path)
            let (duress, duressWaiting) = try history(.duress, in: path + "-duress")
            #expect(real != nil && duress == real, "\(String(describing: duress))")
            #expect(real?.incident.outcome == "disarmed with the PIN" && real?.incident.sentAt == nil)
            #expect(realWaiting.isEmpty)
            let kinds = Set(duressWaiting.map(\.kind))
            #expect(kinds == ["alert", "duress"] && duressWaiting.allSatisfy(\.isConcealed), "\(duressWaiting)")
        }
    }

    /// A fall while a test alarm's messages wait (no network): they are given up, so none
    /// arrives saying "test" in the middle of the real emergency or stands for its alert, and the
    /// fall's own alert is not a test.
    @Test func aRealEmergencyGivesUpTheTestAlarmsWaitingMessages() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.testAlarm, at: 10 * s)
            try store.apply(.tick, at: 41 * s)
            #expect(try store.waiting().contains { $0.isTest && $0.kind == "alert" })
            try store.apply(.detection(.automaticFall), at: 50 * s)
            let left = try store.waiting()
            #expect(left.isEmpty, "\(left)")
            try store.apply(.tick, at: 171 * s)
            let waiting = try store.waiting()
            #expect(waiting.contains { $0.kind == MessageKind.alert.rawValue }, "the fall's alert: \(waiting)")
            #expect(waiting.allSatisfy { !$0.isTest }, "\(waiting)")
        }
    }

    /// The hidden emergency's messages never say "test", even when the duress PIN stopped a
    /// test alarm.
    @Test func theDuressPINDuringATestAlarmSendsNoTestMessages() throws {
        try withStore { path in
            let store = try WorkflowStore(path: path)
            try store.saveContact(Contact(name: "Bob", phone: "+33612345678"))
            try store.apply(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
            try store.apply(.testAlarm, at: 10 * s)
            try store.apply(.disarm(.duress), at: 20 * s)
            let waiting = try store.waiting()
            #expect(!waiting.isEmpty && waiting.allSatisfy { $0.isConcealed && !$0.isTest }, "\(waiting)")
        }
    }
}

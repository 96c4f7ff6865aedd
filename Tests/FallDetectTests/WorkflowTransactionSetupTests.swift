import Foundation
import Testing
@testable import FallDetect

/// The page's set-up against a real SQLite store: free before the PIN, behind it afterwards, with
/// wrong tries kept (and locking) even though the change is refused.
@Suite struct WorkflowTransactionSetupTests {
    let s: Int64 = 1_000_000_000
    let ana = try! ProtectedPerson(fullName: "Ana Pereira", phone: "+351912345678", country: "PT")

    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("setup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try WorkflowStore(path: dir + "/detectord.sqlite"))
    }

    private func contact(_ n: Int) throws -> Contact { try Contact(name: "Contact \(n)", phone: "+35191333333\(n)", channel: "sms") }

    @Test func beforeThePINAnyoneSetsUpAndAfterItOnlyThePINChangesAnything() throws {
        try withStore { store in
            let started = try store.transaction { try $0.setUp(.person(ana, gnssConfigured: false), pin: nil, at: 0) }
            guard case .done(let actions) = started else { Issue.record("\(started)"); return }
            #expect(actions.contains(.warning("no GNSS source is configured: alerts will carry no location")))
            #expect(try store.workflow().person == ana)
            #expect(try store.transaction { try $0.setUp(.saveContact(try contact(1), replacing: nil, limit: 5), pin: nil, at: 0) } == .done([]))
            #expect(try store.transaction { try $0.setUp(.pin("4821"), pin: nil, at: 0) } == .done([]))
            #expect(try store.transaction { try $0.isSetUp() })
            #expect(try store.transaction { try $0.setUp(.saveContact(try contact(2), replacing: nil, limit: 5), pin: nil, at: 0) } == .pinNeeded)
            #expect(try store.transaction { try $0.setUp(.saveContact(try contact(2), replacing: nil, limit: 5), pin: "1111", at: 0) } == .wrongPIN)
            #expect(try store.transaction { try $0.setUp(.saveContact(try contact(2), replacing: nil, limit: 5), pin: "4821", at: 0) } == .done([]))
            #expect(try store.contacts().map(\.name) == ["Contact 1", "Contact 2"])
            // Changing the PIN needs the old one; the new one works at once.
            #expect(try store.transaction { try $0.setUp(.pin("1357"), pin: "4821", at: 0) } == .done([]))
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "4821", at: 0) } == .wrongPIN)
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "1357", at: 0) } == .done([]))
        }
    }

    /// Wrong tries in Settings are kept and lock Settings out, but not the wearer's disarming:
    /// a page left open, anyone with the login or a local process could otherwise keep a real
    /// alarm's PIN pad locked for an hour.
    @Test func wrongTriesInSettingsAreKeptButDoNotLockDisarming() throws {
        try withStore { store in
            try store.transaction { _ = try $0.setUp(.pin("4821"), pin: nil, at: 0) }
            for _ in 0..<3 { #expect(try store.transaction { try $0.setUp(.unlock, pin: "0000", at: 10 * s) } == .wrongPIN) }
            // The third wrong try started the 30 s lockout: even the right PIN waits in Settings.
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "4821", at: 20 * s) } == .lockedOut(seconds: 20))
            try store.apply(.startProtection(ana, gnssConfigured: true, hasFix: true), at: 20 * s)
            try store.apply(.sos(fromKeychain: false), at: 20 * s)
            let disarm = try store.transaction { try $0.disarm(pin: "4821", at: 25 * s) }
            #expect(!disarm.contains { if case .ignored = $0 { true } else { false } }, "\(disarm)")
            #expect(try store.workflow().disarmed)
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "4821", at: 41 * s) } == .done([]))
        }
    }

    /// Settings lock out for up to a day, disarming for up to an hour: guessing through Settings,
    /// where nothing is urgent, must not go at disarming's pace.
    @Test func settingsLockOutForUpToADay() throws {
        try withStore { store in
            try store.transaction { _ = try $0.setUp(.pin("4821"), pin: nil, at: 0) }
            var now: Int64 = 0
            var longest = 0.0
            for _ in 0..<20 {
                #expect(try store.transaction { try $0.setUp(.unlock, pin: "0000", at: now) } == .wrongPIN)
                let lock = try #require(try store.setting(WorkflowTransaction.setupPINLock, as: PINLock.self))
                if let until = lock.lockedUntil {
                    longest = max(longest, Double(until - now) / 1e9)
                    now = until
                }
            }
            #expect(longest == 86_400, "the cap is a day, not disarming's hour: \(longest)")
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "4821", at: now) } == .done([]))
        }
    }

    /// With no alarm there is nothing to disarm: no PIN is checked, so wrong tries sent then (by
    /// a page left open, a local process) cannot hold the wearer's next disarm behind a lockout.
    @Test func disarmingWithNothingToDisarmChecksNoPIN() throws {
        try withStore { store in
            try store.transaction { _ = try $0.setUp(.pin("4821"), pin: nil, at: 0) }
            try store.apply(.startProtection(ana, gnssConfigured: true, hasFix: true), at: 0)
            for _ in 0..<5 { #expect(try store.transaction { try $0.disarm(pin: "0000", at: 10 * s) } == [.ignored("nothing to disarm")]) }
            try store.apply(.sos(fromKeychain: false), at: 11 * s)
            let disarm = try store.transaction { try $0.disarm(pin: "4821", at: 12 * s) }
            #expect(disarm.contains { if case .transition(_, .noEmergency, _) = $0 { true } else { false } }, "\(disarm)")
        }
    }

    @Test func contactsAreFiveAtMostOneNumberEachAndKeepTheirPlaceWhenEdited() throws {
        try withStore { store in
            for n in 1...5 { _ = try store.transaction { try $0.setUp(.saveContact(try contact(n), replacing: nil, limit: 5), pin: nil, at: 0) } }
            #expect { try store.transaction { try $0.setUp(.saveContact(try contact(6), replacing: nil, limit: 5), pin: nil, at: 0) } } throws: {
                ($0 as? FallDetectError)?.message == "at most 5 contacts"
            }
            #expect { try store.transaction { try $0.setUp(.saveContact(try contact(2), replacing: PhoneNumber("+351913333331"), limit: 5), pin: nil, at: 0) } } throws: {
                ($0 as? FallDetectError)?.message == "+351913333332 is already a contact"
            }
            let rui = try Contact(name: "Rui Costa", phone: "+351913333339", channel: "sms")
            _ = try store.transaction { try $0.setUp(.saveContact(rui, replacing: PhoneNumber("+351913333331"), limit: 5), pin: nil, at: 0) }
            #expect(try store.contacts().first == rui)
            _ = try store.transaction { try $0.setUp(.removeContact(PhoneNumber("+351913333335")!), pin: nil, at: 0) }
            #expect(try store.contacts().count == 4)
            #expect { try store.transaction { try $0.setUp(.removeContact(PhoneNumber("+351913333335")!), pin: nil, at: 0) } } throws: {
                ($0 as? FallDetectError)?.field == "phone"
            }
        }
    }

    /// Who is told is fixed while an emergency lasts: a contact removed or renumbered then would
    /// get no more location updates and no all clear.
    @Test func contactsCannotChangeDuringAnEmergency() throws {
        try withStore { store in
            _ = try store.transaction { try $0.setUp(.person(ana, gnssConfigured: true), pin: nil, at: 0) }
            _ = try store.transaction { try $0.setUp(.saveContact(try contact(1), replacing: nil, limit: 5), pin: nil, at: 0) }
            try store.apply(.sos(fromKeychain: false), at: 10 * s)
            let changes: [SetupChange] = try [
                .saveContact(contact(2), replacing: nil, limit: 5),
                .saveContact(contact(9), replacing: PhoneNumber("+351913333331"), limit: 5),
                .removeContact(PhoneNumber("+351913333331")!),
            ]
            for change in changes {
                #expect { try store.transaction { try $0.setUp(change, pin: nil, at: 11 * s) } } throws: {
                    ($0 as? FallDetectError)?.field == "contact" && ($0 as? FallDetectError)?.message.contains("during an emergency") == true
                }
            }
            #expect(try store.contacts() == [try contact(1)])
            try store.apply(.imFine, at: 12 * s)
            #expect(try store.transaction { try $0.setUp(.removeContact(PhoneNumber("+351913333331")!), pin: nil, at: 13 * s) } == .done([]))
        }
    }

    /// Ended (EMERGENCY_ENDED, its survey perhaps never answered; a test alarm cancelled at
    /// set-up, before any PIN that resuming would ask for): the contacts may be put right.
    @Test func contactsMayChangeOnceTheEmergencyHasEnded() throws {
        try withStore { store in
            _ = try store.transaction { try $0.setUp(.person(ana, gnssConfigured: true), pin: nil, at: 0) }
            _ = try store.transaction { try $0.setUp(.saveContact(try contact(1), replacing: nil, limit: 5), pin: nil, at: 0) }
            try store.apply(.testAlarm, at: 10 * s)
            try store.apply(.tick, at: 60 * s)
            try store.apply(.cancel, at: 70 * s)
            #expect(try store.workflow().state == .emergencyEnded)
            let fixed = try store.transaction { try $0.setUp(.saveContact(try contact(9), replacing: PhoneNumber("+351913333331"), limit: 5), pin: nil, at: 80 * s) }
            #expect(fixed == .done([]))
            #expect(try store.contacts() == [try contact(9)])
        }
    }

    /// The page sends the new PIN as typed, so one that is the duress PIN can be refused: the
    /// PIN is checked first, and the duress PIN would quietly stop working.
    @Test func aNewPINThatIsTheDuressPINIsRefused() throws {
        try withStore { store in
            try store.transaction { _ = try $0.setUp(.pin("4821"), pin: nil, at: 0) }
            try store.setSetting("duressHash", try PINHasher.hash("9173"))
            #expect { try store.transaction { try $0.setUp(.pin("9173"), pin: "4821", at: 0) } } throws: {
                ($0 as? FallDetectError)?.field == "new_pin"
            }
            #expect(try store.transaction { try $0.setUp(.unlock, pin: "4821", at: 0) } == .done([]), "the PIN is unchanged")
            #expect(try store.transaction { try $0.setUp(.pin("1357"), pin: "4821", at: 0) } == .done([]))
        }
    }

    @Test func theDetectorChoiceIsKeptAndCheckedByName() throws {
        try withStore { store in
            #expect(try store.transaction { try $0.detectorChoice() } == nil)
            let choice = try DetectorChoice(profile: "Cycling", sensitivity: "high")
            _ = try store.transaction { try $0.setUp(.detector(choice), pin: nil, at: 0) }
            #expect(try store.transaction { try $0.detectorChoice() } == choice)
            #expect(choice.detectionProfile?.name == "cycling")
            #expect(throws: FallDetectError.self) { try DetectorChoice(profile: "skiing", sensitivity: "high") }
            #expect(throws: FallDetectError.self) { try DetectorChoice(profile: "walking", sensitivity: "max") }
        }
    }

    @Test func aTestAlarmRunsTheChainMarksItsMessagesAndResumesOnDelivery() throws {
        try withStore { store in
            #expect { try store.transaction { try $0.setUp(.testAlarm, pin: nil, at: 0) } } throws: { ($0 as? FallDetectError)?.field == "contact" }
            _ = try store.transaction { try $0.setUp(.person(ana, gnssConfigured: true), pin: nil, at: 0) }
            _ = try store.transaction { try $0.setUp(.saveContact(try contact(1), replacing: nil, limit: 5), pin: nil, at: 0) }
            let started = try store.transaction { try $0.setUp(.testAlarm, pin: nil, at: 0) }
            #expect(started == .done([.transition(from: .noEmergency, to: .alertCountdown, reason: "test alarm"), .alarm(on: true), .keychainBeep(on: true)]))
            try store.apply(.tick, at: 100 * s)
            let queued = try store.waiting()
            #expect(queued.count == 2 && queued.allSatisfy(\.isTest))
            let actions = try store.apply(.delivered(.alert), at: 101 * s)
            #expect(actions.contains(.transition(from: .emergencySent, to: .noEmergency, reason: "test alarm delivered")))
            #expect(!(try store.workflow().isTracking))
            let history = try store.incidentHistory()
            #expect(history.first?.incident.trigger == "test_alarm" && history.first?.incident.outcome == "test alarm delivered")
            #expect(history.first?.messages.count == 2 && history.first?.messages.allSatisfy(\.isTest) == true)
            // A real SOS afterwards is not a test.
            try store.apply(.sos(fromKeychain: false), at: 200 * s)
            try store.apply(.tick, at: 400 * s)
            #expect(try store.waiting().filter { !$0.isTest }.count == 2)
        }
    }
}

import Foundation
import Testing
@testable import FallDetect

@Suite struct EmergencyWorkflowTests {
    let s: Int64 = 1_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    /// A protected wearer at t = 0.
    func protected() -> EmergencyWorkflow {
        var w = EmergencyWorkflow()
        _ = w.handle(.startProtection(person, gnssConfigured: true, hasFix: true), at: 0)
        return w
    }

    /// A wearer whose fall at t = 0 has gone out at t = 120 s.
    func sending() -> EmergencyWorkflow {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        _ = w.handle(.tick, at: 120 * s)
        return w
    }

    @Test func startingWarnsWithoutGNSS() {
        var w = EmergencyWorkflow()
        let actions = w.handle(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
        #expect(w.isProtecting)
        #expect(actions.count == 1)
        if case .warning(let text) = actions.first { #expect(text.contains("no GNSS source")) } else { Issue.record("no warning") }
        var w2 = EmergencyWorkflow()
        #expect(w2.handle(.startProtection(person, gnssConfigured: true, hasFix: false), at: 0).count == 1)
    }

    @Test func detectionsNeedActiveProtection() {
        var w = EmergencyWorkflow()
        #expect(w.handle(.detection(.automaticFall), at: 0) == [.ignored("protection is not active")])
        #expect(w.state == .noEmergency)
    }

    @Test func countdownThenSendingWithTracking() {
        var w = protected()
        #expect(w.handle(.detection(.automaticFall), at: 0) == [
            .transition(from: .noEmergency, to: .alertCountdown, reason: "fall detected"), .alarm(on: true), .keychainBeep(on: true),
        ])
        #expect(w.countdownRemaining(at: 30 * s) == 90)
        #expect(w.handle(.tick, at: 119 * s).isEmpty)
        #expect(w.handle(.tick, at: 120 * s) == [
            .transition(from: .alertCountdown, to: .emergencySending, reason: "countdown ended"), .send(.alert), .tracking(on: true),
        ])
        #expect(w.alarmOn, "the alarm continues until a manual action")
    }

    @Test func imFineStopsEverythingAndSendsNothing() {
        var w = protected()
        _ = w.handle(.detection(.automaticCrash), at: 0)
        let actions = w.handle(.imFine, at: 10 * s)
        #expect(actions == [.alarm(on: false), .keychainBeep(on: false), .transition(from: .alertCountdown, to: .noEmergency, reason: "I'm fine")])
        #expect(w.handle(.tick, at: 500 * s).isEmpty)
    }

    /// The countdown's end is the deadline, not the next tick: an "I'm fine", a cancel or a
    /// follow-up that comes between the two (the tick is a second apart; requests queued across
    /// a reboot are handled before the first) finds the alert already due, and the PIN needed.
    @Test func aCountdownThatRanOutIsOverBeforeTheNextTick() {
        for input: WorkflowInput in [.imFine, .cancel, .followUp(.recovered)] {
            var w = protected()
            _ = w.handle(.detection(.automaticFall), at: 0)
            let actions = w.handle(input, at: 120 * s + s / 2)
            #expect(actions.starts(with: [
                .transition(from: .alertCountdown, to: .emergencySending, reason: "countdown ended"), .send(.alert), .tracking(on: true),
            ]), "\(input): \(actions)")
            #expect(w.state == .emergencySending, "\(input)")
            #expect(w.handle(.tick, at: 121 * s).allSatisfy { $0 != .send(.alert) }, "sent once")
        }
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.imFine, at: 120 * s - 1) == [
            .alarm(on: false), .keychainBeep(on: false), .transition(from: .alertCountdown, to: .noEmergency, reason: "I'm fine"),
        ], "up to the deadline, \"I'm fine\" still stops it")
    }

    @Test func upAgainWithdrawsAFallsCountdownAndSendsNothing() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.followUp(.recovered), at: 12 * s) == [
            .alarm(on: false), .keychainBeep(on: false), .transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall"),
        ])
        #expect(w.handle(.tick, at: 500 * s).isEmpty, "nothing goes out later")
        // Up before lying still (the stillness stage's outcome) withdraws the same way.
        _ = w.handle(.detection(.automaticFall), at: 600 * s)
        #expect(w.handle(.followUp(.gotUp), at: 606 * s).last == .transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall"))
    }

    /// The stillness stage's window passed with the wearer neither still nor up: only profiles
    /// that wait for stillness run that stage, so the countdown is withdrawn.
    @Test func neitherStillNorUpWithdrawsAFallsCountdown() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.followUp(.timedOut), at: 60 * s) == [
            .alarm(on: false), .keychainBeep(on: false), .transition(from: .alertCountdown, to: .noEmergency, reason: "neither still nor up after the fall"),
        ])
        #expect(w.handle(.tick, at: 500 * s).isEmpty)
    }

    @Test func anAlertThatStandsKeepsItsCountdown() {
        for kind in [FollowUpOutcome.Kind.stayedDown, .confirmed] {
            var w = protected()
            _ = w.handle(.detection(.automaticFall), at: 0)
            #expect(w.handle(.followUp(kind), at: 12 * s).isEmpty, "\(kind)")
            #expect(w.state == .alertCountdown && w.alarmOn)
            #expect(w.handle(.tick, at: 120 * s).contains(.send(.alert)), "\(kind)")
        }
    }

    @Test func upAgainLeavesOtherEmergenciesAndAnsweredAlarmsAlone() {
        // A manual SOS or a crash is not the fall the recovery check followed.
        for raise in [WorkflowInput.sos(fromKeychain: true), .detection(.automaticCrash)] {
            var w = protected()
            _ = w.handle(raise, at: 0)
            #expect(w.handle(.followUp(.recovered), at: 5 * s) == [.ignored("a follow-up withdraws only a fall's countdown")])
            #expect(w.state == .alertCountdown)
        }
        // The wearer answered "Call 112": their choice stands.
        var answered = protected()
        _ = answered.handle(.detection(.automaticFall), at: 0)
        _ = answered.handle(.call112, at: 4 * s)
        #expect(answered.handle(.followUp(.recovered), at: 12 * s) == [.ignored("the wearer answered the alarm; the countdown goes on")])
        #expect(answered.handle(.tick, at: 120 * s).contains(.send(.alert)))
        // A crash seen during the fall's countdown (a bike crash reaches both detectors), or an
        // SOS pressed then: up again withdraws nothing.
        for second in [WorkflowInput.detection(.automaticCrash), .sos(fromKeychain: true)] {
            var backed = protected()
            _ = backed.handle(.detection(.automaticFall), at: 0)
            #expect(backed.handle(second, at: 1 * s) == [.ignored("an emergency is already in progress")])
            #expect(backed.handle(.followUp(.recovered), at: 12 * s) == [.ignored("another detection backs this alarm; the countdown goes on")])
            #expect(backed.handle(.tick, at: 120 * s).contains(.send(.alert)))
        }
        // The next emergency starts without it.
        var next = protected()
        _ = next.handle(.detection(.automaticFall), at: 0)
        _ = next.handle(.detection(.automaticCrash), at: 1 * s)
        _ = next.handle(.imFine, at: 5 * s)
        _ = next.handle(.detection(.automaticFall), at: 100 * s)
        #expect(next.handle(.followUp(.recovered), at: 110 * s).last == .transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall"))
        // Once the alert is out, getting up takes nothing back: the survey asks.
        var w = sending()
        #expect(w.handle(.followUp(.recovered), at: 130 * s) == [.ignored("a follow-up withdraws only a fall's countdown")])
        #expect(w.state == .emergencySending)
    }

    @Test func call112SilencesButTheCountdownGoesOn() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.call112, at: 5 * s) == [.alarm(on: false), .keychainBeep(on: false)])
        #expect(w.state == .alertCountdown)
        #expect(w.handle(.tick, at: 120 * s).contains(.send(.alert)))
    }

    @Test func manualSOSUsesTheShorterCountdown() {
        var w = protected()
        _ = w.handle(.sos(fromKeychain: false), at: 0)
        #expect(w.countdownRemaining(at: 0) == 30)
        #expect(w.handle(.tick, at: 30 * s).contains(.send(.alert)))
        #expect(w.trigger == .manual)
    }

    @Test func deliveryConfirmsAndFifteenMinutesWithoutFails() {
        var sent = sending()
        #expect(sent.handle(.delivered(.alert), at: 130 * s) == [.transition(from: .emergencySending, to: .emergencySent, reason: "delivery confirmed")])

        var failing = sending()
        #expect(failing.handle(.tick, at: (120 + 899) * s).allSatisfy { if case .transition = $0 { false } else { true } })
        #expect(failing.handle(.tick, at: (120 + 900) * s).contains(.transition(from: .emergencySending, to: .emergencySendingFailed, reason: "no delivery confirmed for 15 min")))
        #expect(failing.handle(.delivered(.alert), at: 2000 * s) == [.transition(from: .emergencySendingFailed, to: .emergencySent, reason: "delivery confirmed")])
    }

    /// Carried off in an ambulance at 15 m/s, a fix a second for 5 min: an update a minute, not
    /// one every 4 s (each an SMS to every contact).
    @Test func movesAreSentAMinuteApartAtMost() {
        var w = sending()
        _ = w.handle(.delivered(.alert), at: 121 * s)
        var updates: [Int64] = []
        for t in Int64(130)..<430 {
            let north = Double(t - 130) * 15 / 111_195
            if w.handle(.position(latitude: 48.0 + north, longitude: 11.0), at: t * s).contains(.send(.locationUpdate)) { updates.append(t) }
        }
        #expect(updates == [130, 190, 250, 310, 370], "\(updates)")
    }

    /// Carried indoors right after a move: no fix follows the one held back, and the tick that
    /// ends the minute sends it (it waited for the 5-minute interval).
    @Test func aMoveHeldBackGoesAtTheEndOfTheMinuteWithoutAnotherFix() {
        var w = sending()
        _ = w.handle(.delivered(.alert), at: 121 * s)
        #expect(w.handle(.position(latitude: 48.0, longitude: 11.0), at: 130 * s) == [.send(.locationUpdate)])
        #expect(w.handle(.position(latitude: 48.001, longitude: 11.0), at: 150 * s).isEmpty, "111 m, 20 s after the last")
        #expect(w.handle(.tick, at: 189 * s).isEmpty)
        #expect(w.handle(.tick, at: 190 * s) == [.send(.locationUpdate)])
        #expect(w.handle(.tick, at: 191 * s).isEmpty, "sent once")
    }

    /// Positions deleted after their retention: tracking has none to send until a new fix.
    @Test func aForgottenPositionIsNotSentUntilANewFix() {
        var w = sending()
        _ = w.handle(.delivered(.alert), at: 121 * s)
        #expect(w.handle(.position(latitude: 48.0, longitude: 11.0), at: 130 * s) == [.send(.locationUpdate)])
        w.forgetPositions()
        #expect(w.handle(.tick, at: (130 + 300) * s).isEmpty, "nothing known to send")
        #expect(w.handle(.position(latitude: 48.0, longitude: 11.0), at: 440 * s) == [.send(.locationUpdate)], "the new fix goes at once")
    }

    @Test func trackingSendsOnMovementOrIntervalThenEnds() {
        var w = sending()
        _ = w.handle(.delivered(.alert), at: 121 * s)
        #expect(w.handle(.position(latitude: 48.0, longitude: 11.0), at: 130 * s) == [.send(.locationUpdate)], "first position")
        #expect(w.handle(.position(latitude: 48.0003, longitude: 11.0), at: 140 * s).isEmpty, "33 m is not far enough")
        #expect(w.handle(.position(latitude: 48.0005, longitude: 11.0), at: 150 * s).isEmpty, "56 m is, but 20 s after the last")
        #expect(w.handle(.position(latitude: 48.0005, longitude: 11.0), at: 190 * s) == [.send(.locationUpdate)], "56 m a minute later")
        #expect(w.handle(.tick, at: (190 + 299) * s).isEmpty)
        #expect(w.handle(.tick, at: (190 + 300) * s) == [.send(.locationUpdate)], "every 5 min")
        #expect(w.trackingRemaining(at: 1000 * s) == 921, "30 min from the delivery at 121 s")
        #expect(!w.handle(.tick, at: (120 + 1800) * s).contains(.tracking(on: false)), "not 30 min from when sending began")
        let end = w.handle(.tick, at: (121 + 1800) * s)
        #expect(w.trackingRemaining(at: (121 + 1800) * s) == nil)
        #expect(end == [.tracking(on: false), .send(.trackingStopped), .transition(from: .emergencySent, to: .emergencyEnded, reason: "tracking finished")])
    }

    /// Tracking's 30 min start when a contact knows: an alert that took 20 min to get through is
    /// followed by 30 min of tracking all the same.
    @Test func trackingLastsThirtyMinutesFromTheDelivery() {
        var w = sending()
        #expect(w.isTracking, "positions are followed while sending")
        #expect(w.trackingRemaining(at: 500 * s) == nil, "no end before the alert is delivered")
        #expect(w.trackingEndsAt == nil)
        #expect(!w.handle(.tick, at: (120 + 1800) * s).contains(.tracking(on: false)))
        _ = w.handle(.delivered(.alert), at: 1320 * s)
        #expect(w.trackingEndsAt == (1320 + 1800) * s)
        #expect(w.trackingRemaining(at: 1320 * s) == 1800)
        #expect(w.handle(.tick, at: (1320 + 1800) * s).contains(.send(.trackingStopped)))
    }

    /// A snapshot written while sending by the old code (its tracking end fixed when sending began,
    /// no `trackingAwaitsDelivery` key) still loads; the delivery fixes the end anew.
    @Test func anOldSendingSnapshotLoadsAndTracksFromTheDelivery() throws {
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(sending())) as? [String: Any])
        #expect(json["trackingAwaitsDelivery"] as? Bool == true)
        json["trackingAwaitsDelivery"] = nil
        json["trackingUntil"] = (120 + 1800) * s
        var old = try JSONDecoder().decode(EmergencyWorkflow.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.isTracking)
        #expect(old.trackingRemaining(at: 200 * s) == nil)
        #expect(!old.handle(.tick, at: 2000 * s).contains(.tracking(on: false)), "the old end is not trusted before a delivery")
        _ = old.handle(.delivered(.alert), at: 2100 * s)
        #expect(old.trackingRemaining(at: 2100 * s) == 1800)
    }

    @Test func afterSendingQuitAndCancelNeedThePIN() {
        var w = sending()
        #expect(w.handle(.quit, at: 130 * s) == [.pinRequired])
        #expect(w.handle(.cancel, at: 130 * s) == [.pinRequired])
        #expect(w.handle(.disarm(.wrong), at: 131 * s) == [.ignored("wrong PIN")])
        #expect(w.alarmOn)
        #expect(w.handle(.disarm(.correct), at: 132 * s) == [.alarm(on: false), .keychainBeep(on: false)])
        #expect(w.handle(.quit, at: 133 * s) == [.showSurvey])
    }

    @Test func surveyPaths() {
        var didnt = sending()
        _ = didnt.handle(.disarm(.correct), at: 130 * s)
        #expect(didnt.handle(.survey(.didntFall), at: 131 * s) == [
            .tracking(on: false), .send(.allClear), .transition(from: .emergencySending, to: .emergencyEnded, reason: "survey: I didn't fall"),
        ])
        #expect(didnt.handle(.resume, at: 132 * s) == [.transition(from: .emergencyEnded, to: .noEmergency, reason: "protection resumed")])

        var fell = sending()
        _ = fell.handle(.disarm(.correct), at: 130 * s)
        #expect(fell.handle(.survey(.fell), at: 131 * s).isEmpty)
        #expect(fell.isTracking)

        var fine = sending()
        _ = fine.handle(.disarm(.correct), at: 130 * s)
        #expect(fine.handle(.survey(.noHelpNeeded), at: 131 * s) == [
            .tracking(on: false), .send(.trackingStopped), .transition(from: .emergencySending, to: .noEmergency, reason: "survey: I don't need help anymore"),
        ])
        #expect(fine.isProtecting)
        #expect(fine.handle(.detection(.automaticFall), at: 200 * s).first == .transition(from: .noEmergency, to: .alertCountdown, reason: "fall detected"))
    }

    @Test func duressLooksDisarmedButTheEmergencyGoesOn() {
        var w = sending()
        #expect(w.handle(.disarm(.duress), at: 130 * s) == [
            .alarm(on: false), .keychainBeep(on: false), .concealed(.send(.duress)),
            .transition(from: .emergencySending, to: .noEmergency, reason: "disarmed with the PIN"),
        ])
        #expect(w.displayedState == .noEmergency)
        #expect(w.state == .emergencySending)
        #expect(w.handle(.cancel, at: 131 * s) == [.ignored("no emergency to cancel")], "no all clear goes out")
        #expect(w.isTracking)
        #expect(w.handle(.position(latitude: 1, longitude: 1), at: 140 * s) == [.concealed(.send(.locationUpdate))])
    }

    @Test func duressDuringTheCountdownSendsAtOnce() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        let actions = w.handle(.disarm(.duress), at: 10 * s)
        #expect(actions.contains(.concealed(.send(.alert))))
        #expect(actions.contains(.concealed(.send(.duress))))
        #expect(w.displayedState == .noEmergency)
        var real = protected()
        _ = real.handle(.detection(.automaticFall), at: 0)
        #expect(actions.filter { !$0.isConcealed } == real.handle(.disarm(.correct), at: 10 * s), "what the device shows is a correct disarm's")
    }

    /// Every answer the wearer can give under duress gets what a device with no emergency gives:
    /// the same words, no PIN asked, nothing shown happening.
    @Test func underDuressTheWearersAnswersGetWhatAnIdleDeviceGives() {
        let inputs: [WorkflowInput] = [.imFine, .call112, .quit, .survey(.didntFall), .survey(.fell), .cancel, .resume, .disarm(.correct), .disarm(.duress)]
        for input in inputs {
            var hidden = sending()
            _ = hidden.handle(.disarm(.duress), at: 130 * s)
            var idle = protected()
            #expect(hidden.handle(input, at: 131 * s) == idle.handle(input, at: 131 * s), "\(input)")
            #expect(hidden.underDuress && hidden.state == .emergencySending, "\(input) changed nothing hidden")
        }
    }

    /// The duress PIN during a test alarm: the emergency is real from then on, and it ends as
    /// a real one does. Before, it stayed hidden for good and later alerts said "test".
    @Test func duressDuringATestAlarmIsARealEmergencyThatEnds() {
        var w = protected()
        _ = w.handle(.testAlarm, at: 0)
        _ = w.handle(.disarm(.duress), at: 10 * s)
        #expect(w.trigger == .manual && w.underDuress)
        _ = w.handle(.delivered(.alert), at: 11 * s)
        #expect(w.isTracking, "tracked as a real emergency")
        _ = w.handle(.tick, at: 11 * s + Int64(WorkflowSettings().trackingDuration * 1e9))
        #expect(w.state == .noEmergency && !w.underDuress)
    }

    /// A fall or an SOS during a test alarm is a real emergency: the test ends where it is and the
    /// real one's countdown starts. Before, it was ignored, and went out as a test or not at all.
    @Test func aFallOrAnSOSDuringATestAlarmIsARealEmergency() {
        var w = protected()
        _ = w.handle(.testAlarm, at: 0)
        let actions = w.handle(.detection(.automaticFall), at: 5 * s)
        #expect(w.state == .alertCountdown && w.trigger == .automaticFall && w.alarmOn)
        #expect(actions.contains(.transition(from: .alertCountdown, to: .noEmergency, reason: "a real emergency during the test alarm")), "\(actions)")
        #expect(actions.last == .keychainBeep(on: true), "the alarm sounds on: \(actions)")
        // A test stuck sending (no network): an SOS still gets through as a real one.
        var stuck = protected()
        _ = stuck.handle(.testAlarm, at: 0)
        _ = stuck.handle(.tick, at: 31 * s)
        #expect(stuck.state == .emergencySending && stuck.trigger == .test)
        _ = stuck.handle(.sos(fromKeychain: true), at: 40 * s)
        #expect(stuck.state == .alertCountdown && stuck.trigger == .manual)
        // A second test during a test changes nothing.
        #expect(stuck.handle(.testAlarm, at: 41 * s) == [.ignored("an emergency is already in progress")])
    }

    /// An emergency that ended (the wearer said they did not fall, or its tracking finished) and
    /// that nobody resumed from: a new fall or SOS is a new emergency. Before, it was ignored.
    @Test func aFallOrAnSOSAfterAnEmergencyEndedIsANewOne() {
        var cancelled = sending()
        _ = cancelled.handle(.disarm(.correct), at: 130 * s)
        _ = cancelled.handle(.survey(.didntFall), at: 131 * s)
        #expect(cancelled.state == .emergencyEnded)
        let actions = cancelled.handle(.detection(.automaticFall), at: 200 * s)
        #expect(actions.first == .transition(from: .emergencyEnded, to: .noEmergency, reason: "a new emergency after the last one ended"), "\(actions)")
        #expect(actions.contains(.transition(from: .noEmergency, to: .alertCountdown, reason: "fall detected")))
        #expect(cancelled.state == .alertCountdown && cancelled.alarmOn && !cancelled.disarmed)
        #expect(cancelled.handle(.tick, at: 320 * s).contains(.send(.alert)), "after the fall's 120 s")

        var tracked = sending()
        _ = tracked.handle(.delivered(.alert), at: 121 * s)
        let end = 121 * s + Int64(WorkflowSettings().trackingDuration * 1e9)
        _ = tracked.handle(.tick, at: end)
        #expect(tracked.state == .emergencyEnded)
        _ = tracked.handle(.sos(fromKeychain: true), at: end + s)
        #expect(tracked.state == .alertCountdown && tracked.trigger == .manual && tracked.raisedFromKeychain)
        #expect(tracked.countdownRemaining(at: end + s) == WorkflowSettings().manualCountdown)
    }

    /// A fall or an SOS while the duress PIN hides the emergency is not ignored: the contacts, who
    /// know, are alerted again at once.
    @Test func anSOSUnderDuressAlertsTheContactsAgain() {
        var w = sending()
        _ = w.handle(.disarm(.duress), at: 130 * s)
        #expect(w.handle(.sos(fromKeychain: true), at: 140 * s) == [.concealed(.send(.alert))])
        #expect(w.handle(.detection(.automaticFall), at: 150 * s) == [.concealed(.send(.alert))])
    }

    /// The hidden emergency ends when its tracking does, and the device protects again. Before,
    /// the duress PIN left it ignoring every later fall and SOS.
    @Test func theEmergencyHiddenByDuressEndsAndProtectionReturns() {
        var w = sending()
        _ = w.handle(.disarm(.duress), at: 130 * s)
        #expect(w.handle(.delivered(.alert), at: 131 * s) == [.concealed(.transition(from: .emergencySending, to: .emergencySent, reason: "delivery confirmed"))])
        let end = 131 * s + Int64(WorkflowSettings().trackingDuration * 1e9)
        let ending = w.handle(.tick, at: end)
        #expect(!ending.isEmpty && ending.allSatisfy(\.isConcealed), "\(ending)")
        #expect(ending.contains(.concealed(.send(.trackingStopped))))
        #expect(w.state == .noEmergency && !w.underDuress && w.displayedState == .noEmergency)
        #expect(w.handle(.detection(.automaticFall), at: end + s).first == .transition(from: .noEmergency, to: .alertCountdown, reason: "fall detected"))
    }

    @Test func keychainAlarmRepeatsUntilDisarmed() {
        var w = protected()
        _ = w.handle(.sos(fromKeychain: true), at: 0)
        _ = w.handle(.tick, at: 30 * s)
        #expect(w.nextKeychainMessage(at: 90 * s) == 240)
        #expect(w.handle(.tick, at: 330 * s).contains(.send(.keychainRepeat)))
        #expect(!w.handle(.tick, at: 331 * s).contains(.send(.keychainRepeat)))
        _ = w.handle(.disarm(.correct), at: 400 * s)
        #expect(w.nextKeychainMessage(at: 400 * s) == nil)
        #expect(!w.handle(.tick, at: 700 * s).contains(.send(.keychainRepeat)))
    }

    @Test func aSecondDetectionDuringAnEmergencyIsIgnored() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.detection(.automaticCrash), at: 1 * s) == [.ignored("an emergency is already in progress")])
        #expect(w.trigger == .automaticFall)
    }

    @Test func stateSurvivesEncodingForRestart() throws {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        let restored = try JSONDecoder().decode(EmergencyWorkflow.self, from: JSONEncoder().encode(w))
        #expect(restored == w)
        var resumed = restored
        #expect(resumed.countdownRemaining(at: 100 * s) == 20, "the countdown continues with the right time left")
        #expect(resumed.handle(.tick, at: 120 * s).contains(.send(.alert)))
    }

    /// A backed-up countdown survives a restart, and a snapshot from before the flag existed
    /// (no such key) still loads.
    @Test func aBackedCountdownSurvivesARestartAndOldSnapshotsLoad() throws {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        _ = w.handle(.detection(.automaticCrash), at: 1 * s)
        var restored = try JSONDecoder().decode(EmergencyWorkflow.self, from: JSONEncoder().encode(w))
        #expect(restored.handle(.followUp(.recovered), at: 12 * s) == [.ignored("another detection backs this alarm; the countdown goes on")])
        // The backed snapshot with the flag's key removed reads as an unbacked countdown.
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(w)) as? [String: Any])
        #expect(json["corroborated"] as? Bool == true)
        json["corroborated"] = nil
        var old = try JSONDecoder().decode(EmergencyWorkflow.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.handle(.followUp(.recovered), at: 12 * s).last == .transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall"))
    }

    /// A test alarm started from Settings during a fall's countdown backs nothing: getting up
    /// still withdraws the false fall alarm.
    @Test func aTestAlarmDuringAFallsCountdownDoesNotBackIt() {
        var w = protected()
        _ = w.handle(.detection(.automaticFall), at: 0)
        #expect(w.handle(.testAlarm, at: 1 * s) == [.ignored("an emergency is already in progress")])
        #expect(w.handle(.followUp(.recovered), at: 12 * s).last == .transition(from: .alertCountdown, to: .noEmergency, reason: "up again after the fall"))
    }
}

@Suite struct ProtectedPersonTests {
    @Test(arguments: [("", "+33612345678", "FR", "name"), ("Jo", "0612345678", "FR", "phone"), ("Jo", "+0612345678", "FR", "phone"), ("Jo", "+33612345678", "France", "country"), ("Jo", "+3361234567890123", "FR", "phone")])
    func invalidFieldsAreNamed(name: String, phone: String, country: String, field: String) {
        #expect { try ProtectedPerson(fullName: name, phone: phone, country: country) } throws: { ($0 as? FallDetectError)?.field == field }
    }

    @Test func validPersonIsTrimmed() throws {
        let p = try ProtectedPerson(fullName: "  Jo Bloggs ", phone: "+33612345678", country: "FR")
        #expect(p.fullName == "Jo Bloggs")
        #expect(p.phone.e164 == "+33612345678")
    }
}

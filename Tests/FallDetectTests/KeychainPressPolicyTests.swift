import Testing
@testable import FallDetect

@Suite struct KeychainPressPolicyTests {
    @Test func theDefaultsRaiseAnSOSAndNeverCancel() throws {
        let policy = try KeychainPressPolicy()
        for press in KeychainPress.allCases {
            #expect(policy.decide(press, state: .noEmergency, trigger: nil).input == .sos(fromKeychain: true), "\(press)")
        }
        for trigger in [EmergencyTrigger.automaticFall, .automaticCrash, .manual] {
            for press in KeychainPress.allCases {
                #expect(policy.decide(press, state: .alertCountdown, trigger: trigger).input == .sos(fromKeychain: true), "\(press) confirms; nothing cancels by default")
            }
        }
        #expect(!policy.usesLongerPatterns)
    }

    @Test func afterSendingOnlyThePINDisarms() throws {
        let policy = try KeychainPressPolicy(sos: .single, imFine: .double)
        for state in [EmergencyState.emergencySending, .emergencySent, .emergencySendingFailed] {
            for press in KeychainPress.allCases {
                let decision = policy.decide(press, state: state, trigger: .automaticFall)
                #expect(decision.input == nil, "\(press) in \(state)")
                #expect(decision.reason.contains("only the PIN"))
            }
        }
    }

    /// Once the emergency ended (its tracking over, or "I didn't fall"), the SOS pattern is a new
    /// emergency; nothing else means anything, "I'm fine" included.
    @Test func afterAnEmergencyEndedTheSOSPatternStartsANewOne() throws {
        let policy = try KeychainPressPolicy(sos: .single, imFine: .double)
        #expect(policy.decide(.single, state: .emergencyEnded, trigger: .automaticFall).input == .sos(fromKeychain: true))
        #expect(policy.decide(.double, state: .emergencyEnded, trigger: .automaticFall).input == nil, "I'm fine means nothing here")
        #expect(policy.decide(.triple, state: .emergencyEnded, trigger: .manual).input == .sos(fromKeychain: true), "more presses than the SOS")
    }

    @Test func aChosenImFinePatternCancelsOnlyADetectionsCountdown() throws {
        let policy = try KeychainPressPolicy(sos: .single, imFine: .triple)
        #expect(policy.decide(.triple, state: .alertCountdown, trigger: .automaticFall).input == .imFine)
        #expect(policy.decide(.triple, state: .alertCountdown, trigger: .automaticCrash).input == .imFine)
        #expect(policy.decide(.triple, state: .alertCountdown, trigger: .manual).input == nil, "an SOS the person raised is not the button's to cancel")
        #expect(policy.decide(.triple, state: .noEmergency, trigger: nil).input == nil, "the I'm fine pattern is never an SOS")
        #expect(policy.decide(.double, state: .alertCountdown, trigger: .automaticFall).input == .sos(fromKeychain: true), "more presses than the SOS confirm")
        #expect(policy.usesLongerPatterns)
    }

    @Test func anotherSOSPatternMovesTheMeaning() throws {
        let policy = try KeychainPressPolicy(sos: .double)
        #expect(policy.decide(.double, state: .noEmergency, trigger: nil).input == .sos(fromKeychain: true))
        #expect(policy.decide(.single, state: .noEmergency, trigger: nil).input == nil)
        // Pressed once more than asked, as someone in trouble does: still an SOS.
        #expect(policy.decide(.triple, state: .noEmergency, trigger: nil).input == .sos(fromKeychain: true))
        #expect(policy.decide(.triple, state: .emergencyEnded, trigger: .automaticFall).input == .sos(fromKeychain: true))
        #expect(policy.usesLongerPatterns)
    }

    @Test func theSamePatternCannotMeanBoth() {
        #expect(throws: KeychainPolicyError.samePattern(.double)) { try KeychainPressPolicy(sos: .double, imFine: .double) }
    }
}

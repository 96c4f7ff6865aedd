import FallDetect
import Testing

@testable import detectord

/// The fields each POST route takes: what is refused names the field the page marks.
struct APIRequestFieldsTests {
    static func refusal<T>(_ decode: () throws(FallDetectError) -> T) -> FallDetectError? {
        do throws(FallDetectError) {
            _ = try decode()
            return nil
        } catch { return error }
    }

    @Test func aNewPINMustBeValidAndGivenTwice() throws {
        #expect(try APIRequestFields.newPIN(["new_pin": "2468", "confirm": "2468"]) == "2468")
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.newPIN(["new_pin": "12", "confirm": "12"]) }?.field == "new_pin")
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.newPIN(["new_pin": "2468", "confirm": "2469"]) }?.field == "confirm")
    }

    @Test func aContactTakesTheFirstChannelAndRefusesOthers() throws {
        let given = try APIRequestFields.contact(["name": " Ana ", "phone": "+351913333333"], channels: ["sms", "console"])
        #expect(given.contact.name == "Ana" && given.contact.channel == "sms" && given.replacing == nil)
        let refused = Self.refusal { () throws(FallDetectError) in
            try APIRequestFields.contact(["name": "Ana", "phone": "+351913333333", "channel": "webhook"], channels: ["sms", "console"])
        }
        #expect(refused?.field == "channel" && refused?.message.contains("sms, console") == true)
        let badReplacing = Self.refusal { () throws(FallDetectError) in
            try APIRequestFields.contact(["name": "Ana", "phone": "+351913333333", "replacing": "913"], channels: ["sms"])
        }
        #expect(badReplacing?.field == "replacing")
    }

    @Test func numbersOutOfRangeAreRefusedAndDefaultsApply() throws {
        #expect(try APIRequestFields.beepSeconds([:]) == 2)
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.beepSeconds(["seconds": 31.0]) } != nil)
        #expect(try APIRequestFields.scanSeconds([:]) == 5)
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.scanSeconds(["seconds": 0.5]) } != nil)
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.keychainSimulation(["battery": 101]) } != nil)
        #expect(try APIRequestFields.keychainSimulation(["in_range": false]).inRange == false)
    }

    @Test func pairingNeedsAnAddressAndBoundsTheWait() throws {
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.pairing(["address": "not an address"]) }?.field == "address")
        let wanted = try APIRequestFields.pairing(["address": "FF:FF:10:20:30:40", "confirm_seconds": 600.0])
        #expect(wanted.confirmWithin == 60 && wanted.candidate.name == "keychain")
        #expect(try APIRequestFields.pairing(["address": "FF:FF:10:20:30:40"]).confirmWithin == 30)
    }

    @Test func theSurveyAndDisarmNameWhatTheyTake() throws {
        #expect(try APIRequestFields.survey(["answer": "fell"]) == .fell)
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.survey(["answer": "maybe"]) }?.message.contains("didnt_fall") == true)
        #expect(Self.refusal { () throws(FallDetectError) in try APIRequestFields.disarmPIN(["pin": String(repeating: "1", count: 33)]) } != nil)
        #expect(try APIRequestFields.contactToDelete(["phone": "+351913333333"]).e164 == "+351913333333")
    }
}

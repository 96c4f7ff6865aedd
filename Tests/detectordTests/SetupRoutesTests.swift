import FallDetect
import Foundation
import Testing
@testable import detectord

@Suite(.serialized) struct SetupRoutesTests {
    @Test func numbersInsideJournalLinesAreMasked() {
        #expect(SetupRoutes.maskingNumbers("msg-3-sms-+351913333333") == "msg-3-sms-+351••••••333")
        #expect(SetupRoutes.maskingNumbers("a +12 b +447700900123|x") == "a +12 b +447••••••123|x")
        #expect(SetupRoutes.maskingNumbers("no number") == "no number")
        #expect(SetupRoutes.maskingNumbers("+") == "+")
    }

    /// `[keychain] address` decides which tag the daemon connects to, so a pairing on the page
    /// would be answered "Paired" and then ignored: it is refused, naming the file's setting.
    /// The page's edit form sends no channel: the contact keeps its own (while it is still
    /// configured), rather than moving to the first channel.
    @Test func anEditWithoutAChannelKeepsTheContacts() throws {
        let stored = [try Contact(name: "Rui", phone: "+351913333333", channel: "console")]
        let edit: APIRequestFields.Body = ["name": "Rui Costa", "phone": "+351913333333", "replacing": "+351913333333"]
        let kept = try APIRequestFields.contact(SetupRoutes.keepingChannel(edit, of: stored, configured: ["sms", "console"]), channels: ["sms", "console"])
        #expect(kept.contact.channel == "console" && kept.contact.name == "Rui Costa" && kept.replacing?.e164 == "+351913333333")
        var chosen = edit
        chosen["channel"] = "sms"
        #expect(SetupRoutes.keepingChannel(chosen, of: stored, configured: ["sms", "console"])["channel"] as? String == "sms")
        #expect(SetupRoutes.keepingChannel(edit, of: stored, configured: ["sms"])["channel"] == nil, "a channel no longer configured is not kept")
        let added: APIRequestFields.Body = ["name": "Ana", "phone": "+351914444444"]
        #expect(SetupRoutes.keepingChannel(added, of: stored, configured: ["sms", "console"])["channel"] == nil, "a new contact takes the first channel")
    }

    @Test func pairingIsRefusedWhenTheFileGivesTheKeychainsAddress() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true,
                        extra: "\n[keychain]\nkind = \"simulated\"\naddress = \"FF:FF:10:20:30:40\"\n")
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()
        let pair = try DaemonProcess.request(base + "/api/keychain/pair", method: "POST", json: ["address": "FF:FF:C0:FF:EE:07"])
        #expect(pair.status == 409 && (pair.body["error"] as? String)?.contains("[keychain] address") == true, "\(pair.text)")
        let details = try DaemonProcess.request(base + "/api/setup").body
        #expect((details["file_managed"] as? [String: Any])?["keychain"] as? Bool == true, "\(details)")
        #expect(try WorkflowStore(path: setup.databasePath).snapshot { try $0.keychainBinding() } == nil)
    }

    /// A keychain bound on another device is a conflict the page shows (409 with the message),
    /// not a bare 500; this device's keychain paired again after the wearer's number changed
    /// follows the wearer.
    @Test func pairingOnThePageAnswersARefusalAndFollowsTheWearer() throws {
        let setup = try DaemonTestSetup()
        defer { setup.remove() }
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"), loop: true, extra: "\n[keychain]\nkind = \"simulated\"\n")
        let store = try WorkflowStore(path: setup.databasePath)
        try store.transaction { tx in
            try tx.setSetting("deviceID", "another-device")
            try tx.bindKeychain(KeychainBinding(address: "FF:FF:C0:FF:EE:07", addressType: "public", name: "iTAG",
                                                person: "+351919999999", device: "", boundAt: 1))
            try tx.setSetting("deviceID", "this-device")
            // Bound when the wearer had another number.
            try tx.bindKeychain(KeychainBinding(address: "FF:FF:10:20:30:40", addressType: "public", name: "iTAG",
                                                person: "+351910000000", device: "", boundAt: 1))
        }
        let daemon = try setup.start()
        defer { daemon.kill9() }
        let base = try daemon.apiBase()

        let elsewhere = try DaemonProcess.request(base + "/api/keychain/pair", method: "POST", json: ["address": "FF:FF:C0:FF:EE:07"])
        #expect(elsewhere.status == 409 && (elsewhere.body["error"] as? String)?.contains("another device") == true, "\(elsewhere.text)")
        #expect(try store.snapshot { try $0.keychainBinding() }?.address == "FF:FF:10:20:30:40", "a refused pairing keeps the keychain there was")

        let again = try DaemonProcess.request(base + "/api/keychain/pair", method: "POST", json: ["address": "FF:FF:10:20:30:40"])
        #expect(again.status == 200, "\(again.text)")
        #expect(try store.snapshot { try $0.keychainBinding() }?.person == "+351912345678", "the wearer's number now")
    }
}

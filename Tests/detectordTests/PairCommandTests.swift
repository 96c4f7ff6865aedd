import DeviceLink
import FallDetect
import Foundation
import Testing

/// `detectord pair` as a person runs it, against simulated tags (a near and a far iTag, each a
/// fake peripheral reached through the real ATT client): scan, choose, beep, press, bind.
@Suite(.serialized) struct PairCommandTests {
    static func setup() throws -> DaemonTestSetup {
        let setup = try DaemonTestSetup()
        try setup.write(replay: DaemonTestSetup.demo("walking.detrec"))
        return setup
    }

    @Test func pairingScansBeepsWaitsForThePressAndBinds() throws {
        let setup = try Self.setup()
        defer { setup.remove() }
        let run = try DetectordProcess.run(["pair", "--config", setup.configPath, "--simulate", "--choose", "1", "--scan-seconds", "1"])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.standardError.contains("Scanning for keychains"))
        #expect(run.standardOutput.contains("1  iTAG") && run.standardOutput.contains("-58 dBm"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("2  iTAG") && run.standardOutput.contains("-83 dBm"), "the far one is listed second")
        #expect(run.standardOutput.contains("Is this your keychain? It is beeping now"))
        #expect(run.standardOutput.contains("Paired: iTAG FF:FF:10:20:30:40 belongs to Ana Pereira on this device. Battery 96 %."), "\(run.standardOutput)")
        let bound = try WorkflowStore(path: setup.databasePath).snapshot { try $0.keychainBinding() }
        #expect(bound?.address == "FF:FF:10:20:30:40")
        #expect(bound?.person == "+351912345678")

        let second = try DetectordProcess.run(["pair", "--config", setup.configPath, "--simulate", "--choose", "2", "--scan-seconds", "1"])
        #expect(second.status == 1)
        #expect(second.standardError.contains("already has keychain iTAG FF:FF:10:20:30:40; run detectord pair --forget first"), "\(second.standardError)")

        let forget = try DetectordProcess.run(["pair", "--config", setup.configPath, "--forget"])
        #expect(forget.status == 0)
        #expect(forget.standardOutput.contains("Forgot keychain iTAG FF:FF:10:20:30:40."))
        #expect(try WorkflowStore(path: setup.databasePath).snapshot { try $0.keychainBinding() } == nil)
    }

    @Test func aKeychainBoundToSomeoneElseIsRefused() throws {
        let setup = try Self.setup()
        defer { setup.remove() }
        let store = try WorkflowStore(path: setup.databasePath)
        try store.transaction { tx in
            try tx.bindKeychain(KeychainBinding(address: "FF:FF:C0:FF:EE:07", addressType: "public", name: "iTAG",
                                                person: "+351919999999", device: "", boundAt: 1))
            // Forgotten on this device's side only: the binding of the other person stays.
            try tx.setSetting("deviceID", "a-new-device")
        }
        let run = try DetectordProcess.run(["pair", "--config", setup.configPath, "--simulate", "--address", "FF:FF:C0:FF:EE:07"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("already bound to another person (+351919999999)"), "\(run.standardError)")
    }

    @Test func nothingFoundSaysSo() throws {
        let setup = try Self.setup()
        defer { setup.remove() }
        let run = try DetectordProcess.run(["pair", "--config", setup.configPath, "--simulate", "--address", "FF:FF:00:00:00:01", "--confirm-seconds", "1"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("cannot reach the keychain"), "\(run.standardError)")
        let noRadio = try DetectordProcess.run(["pair", "--config", setup.configPath, "--choose", "1", "--scan-seconds", "0.5"])
        #expect(noRadio.status == 1)
        #expect(noRadio.standardError.contains("cannot scan"), "\(noRadio.standardError)")
    }
}

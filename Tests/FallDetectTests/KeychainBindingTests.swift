import Foundation
import Testing
@testable import FallDetect

@Suite struct KeychainBindingTests {
    static func store() throws -> (WorkflowStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("binding-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (try WorkflowStore(path: dir.appendingPathComponent("w.sqlite").path), dir)
    }

    static func binding(_ address: String = "ff:ff:10:20:30:40", person: String = "+351912345678") -> KeychainBinding {
        KeychainBinding(address: address, addressType: "public", name: "iTAG", person: person, device: "", boundAt: 1)
    }

    @Test func oneKeychainBindsToOnePersonOnThisDevice() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { try $0.bindKeychain(Self.binding()) }
        let bound = try #require(try store.snapshot { try $0.keychainBinding() })
        #expect(bound.address == "FF:FF:10:20:30:40")
        #expect(bound.device == (try store.transaction { try $0.deviceID() }))
        try store.transaction { try $0.bindKeychain(Self.binding()) }  // pairing it again is fine
        #expect(throws: FallDetectError.self, "a second keychain needs the first forgotten") {
            try store.transaction { try $0.bindKeychain(Self.binding("FF:FF:AA:BB:CC:DD")) }
        }
        #expect(try store.transaction { try $0.forgetKeychain(at: 2) }?.address == "FF:FF:10:20:30:40")
        #expect(try store.snapshot { try $0.keychainBinding() } == nil)
        try store.transaction { try $0.bindKeychain(Self.binding("FF:FF:AA:BB:CC:DD")) }
    }

    @Test func aKeychainBoundToSomeoneElseIsRefusedWithAClearMessage() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { try $0.bindKeychain(Self.binding()) }
        do {
            try store.transaction { try $0.bindKeychain(Self.binding(person: "+351913333333")) }
            Issue.record("bound to a second person")
        } catch let error as FallDetectError {
            #expect(error.message.contains("already bound to another person"), "\(error)")
            #expect(error.message.contains("pair --forget"))
        }
    }

    @Test func aKeychainBoundOnAnotherDeviceIsRefused() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { try $0.bindKeychain(Self.binding()) }
        // The same database moved to another device (restored from a backup): a new identity.
        try store.transaction { try $0.setSetting("deviceID", "another-device") }
        do {
            try store.transaction { try $0.bindKeychain(Self.binding()) }
            Issue.record("bound on a second device")
        } catch let error as FallDetectError {
            #expect(error.message.contains("another device"), "\(error)")
        }
    }

    @Test func theKeychainLostMessageGoesOncePerLoss() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try store.transaction { tx in
            try tx.adopt(person: try ProtectedPerson(fullName: "Ana Pereira", phone: "+351912345678", country: "PT"),
                         contacts: [try Contact(name: "Rui", phone: "+351913333333", channel: "webhook")], pinHash: nil,
                         settings: WorkflowSettings(), gnssConfigured: false, at: 0)
        }
        let s: Int64 = 1_000_000_000
        try store.transaction { try $0.recordKeychainLink(connected: false, since: 10 * s, at: 10 * s) }
        #expect(try store.transaction { try $0.remindKeychainLost(afterSeconds: 60, at: 69 * s) } == false)
        #expect(try store.transaction { try $0.remindKeychainLost(afterSeconds: 60, at: 70 * s) } == true)
        #expect(try store.transaction { try $0.remindKeychainLost(afterSeconds: 60, at: 500 * s) } == false, "once per loss")
        let queued = try store.due(at: Int64.max).filter { $0.kind == MessageKind.keychainLost.rawValue }
        #expect(queued.map(\.recipient).sorted() == ["+351912345678", "log"], "to the wearer on the contacts' channel, not to Rui")
        try store.transaction { try $0.recordKeychainLink(connected: true, since: 600 * s, at: 600 * s) }
        try store.transaction { try $0.recordKeychainLink(connected: false, since: 700 * s, at: 700 * s) }
        #expect(try store.transaction { try $0.remindKeychainLost(afterSeconds: 60, at: 760 * s) } == true, "a new loss, a new message")
    }
}

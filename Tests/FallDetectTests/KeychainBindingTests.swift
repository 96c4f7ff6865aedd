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

    /// A keychain forgotten while out of reach is lost no more: the wearer is not told about a
    /// keychain they removed.
    @Test func forgettingALostKeychainEndsItsLoss() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { try $0.bindKeychain(Self.binding()) }
        try store.transaction { try $0.recordKeychainLink(connected: false, since: 1, at: 1) }
        #expect(try store.snapshot { try $0.keychainLostSince() } == 1)
        try store.transaction { _ = try $0.forgetKeychain(at: 2) }
        #expect(try store.snapshot { try $0.keychainLostSince() } == nil)
        #expect(try !store.transaction { try $0.remindKeychainLost(afterSeconds: 0, at: 3_000_000_000) })
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

    /// The page's pairing: this device's keychain paired again after the wearer's number changed
    /// follows the wearer, another keychain takes its place, and one bound on another device is
    /// still refused (the page answers 409 with the message).
    @Test func pairingReplacesThisDevicesKeychainAndFollowsTheWearer() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.transaction { try $0.bindKeychain(Self.binding()) }
        try store.transaction { try $0.replaceKeychain(with: Self.binding(person: "+351913333333")) }
        #expect(try store.snapshot { try $0.keychainBinding() }?.person == "+351913333333")
        try store.transaction { try $0.replaceKeychain(with: Self.binding("FF:FF:AA:BB:CC:DD", person: "+351913333333")) }
        #expect(try store.snapshot { try $0.keychainBinding() }?.address == "FF:FF:AA:BB:CC:DD")
        #expect(try store.snapshot { try $0.binding(of: "FF:FF:10:20:30:40") } == nil, "the one before is forgotten")
        try store.transaction { try $0.setSetting("deviceID", "another-device") }
        #expect { try store.transaction { try $0.replaceKeychain(with: Self.binding("FF:FF:AA:BB:CC:DD", person: "+351913333333")) } } throws: {
            ($0 as? FallDetectError)?.message.contains("another device") == true
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
}

import Foundation
import Testing
@testable import FallDetect

/// The keychain's battery and link as the workflow database keeps them.
@Suite struct WorkflowTransactionKeychainTests {
    static let s: Int64 = 1_000_000_000

    static func store() throws -> (WorkflowStore, URL) {
        let (store, dir) = try KeychainBindingTests.store()
        _ = try store.transaction { tx in
            try tx.adopt(person: try ProtectedPerson(fullName: "Ana Pereira", phone: "+351912345678", country: "PT"),
                         contacts: [try Contact(name: "Rui", phone: "+351913333333", channel: "webhook")], pinHash: nil,
                         settings: WorkflowSettings(), gnssConfigured: false, at: 0)
        }
        return (store, dir)
    }

    @Test func aLowBatteryIsToldOnceADay() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let day: Int64 = 86_400 * Self.s
        #expect(try store.transaction { try $0.recordKeychainBattery(percent: 20, at: 1 * Self.s) } == false, "20 % is not low")
        #expect(try store.transaction { try $0.recordKeychainBattery(percent: 19, at: 2 * Self.s) } == true)
        #expect(try store.transaction { try $0.recordKeychainBattery(percent: 18, at: 2 * Self.s + day - 1) } == false, "not twice in a day")
        #expect(try store.transaction { try $0.recordKeychainBattery(percent: 17, at: 2 * Self.s + day) } == true, "again the next day")
        #expect(try store.setting("batteryPercent", as: Int.self) == 17)
    }

    @Test func theKeychainLostMessageGoesOncePerLoss() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = Self.s
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

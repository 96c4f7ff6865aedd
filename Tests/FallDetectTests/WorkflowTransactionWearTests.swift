import Foundation
import Testing
@testable import FallDetect

@Suite struct WorkflowTransactionWearTests {
    let s: Int64 = 1_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("wear")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try WorkflowStore(path: dir + "/detectord.sqlite")
        try store.saveContact(Contact(name: "Bob", phone: "+33612345678", channel: "sms"))
        try store.saveContact(Contact(name: "Eve", phone: "+33698765432", channel: "sms"))
        try store.saveContact(Contact(name: "Hook", phone: "+33611111111", channel: "webhook"))
        try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
        try body(store)
    }

    @Test func theWearerIsToldOnceAfterTheDelayOnTheContactsChannels() throws {
        try withStore { store in
            try store.transaction { tx in try tx.recordWear(isWorn: false, since: 10 * s, at: 50 * s) }
            #expect(try store.transaction { tx in try tx.notWornSince() } == 10 * s)
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 1800, at: 1000 * s) } == false)
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 1800, at: 1810 * s) })
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 1800, at: 4000 * s) } == false, "once per removal")
            let queued = try store.waiting().filter { $0.kind == "not_worn" }
            // The wearer, not the contacts: once per channel, and the log.
            #expect(queued.map(\.recipient).sorted() == ["+447700900123", "+447700900123", "log"])
            #expect(Set(queued.map(\.channel)) == ["console", "sms", "webhook"])
            // Never an emergency.
            #expect(try store.workflow().state == .noEmergency)
        }
    }

    /// A fall, then a body lying still: the wear monitor may take it for a device set down. The
    /// wearer's "your device seems to be off" must not go to every channel mid-alarm; once the
    /// emergency is over, a device still off is told of as before.
    @Test func noNotWornMessageDuringAnEmergency() throws {
        try withStore { store in
            try store.apply(.detection(.automaticFall), at: 0)
            try store.transaction { tx in try tx.recordWear(isWorn: false, since: 5 * s, at: 45 * s) }
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 60, at: 100 * s) } == false, "in the countdown")
            try store.apply(.tick, at: 120 * s)
            #expect(try store.workflow().state.hasSent)
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 60, at: 200 * s) } == false, "after the alert")
            #expect(try store.waiting().filter { $0.kind == "not_worn" }.isEmpty)
            try store.apply(.disarm(.correct), at: 300 * s)
            try store.apply(.survey(.didntFall), at: 301 * s)
            #expect(try store.workflow().state == .emergencyEnded)
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 60, at: 400 * s) }, "told once it is over")
        }
    }

    @Test func wearingItAgainStartsOver() throws {
        try withStore { store in
            try store.transaction { tx in try tx.recordWear(isWorn: false, since: 0, at: 40 * s) }
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 60, at: 100 * s) })
            try store.transaction { tx in try tx.recordWear(isWorn: true, since: 200 * s, at: 200 * s) }
            #expect(try store.transaction { tx in try tx.notWornSince() } == nil)
            try store.transaction { tx in try tx.recordWear(isWorn: false, since: 300 * s, at: 340 * s) }
            #expect(try store.transaction { tx in try tx.remindNotWorn(afterSeconds: 60, at: 400 * s) }, "a new removal is told again")
        }
    }
}

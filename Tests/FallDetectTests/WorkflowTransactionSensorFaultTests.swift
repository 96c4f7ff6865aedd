import Foundation
import Testing
@testable import FallDetect

@Suite struct WorkflowTransactionSensorFaultTests {
    let s: Int64 = 1_000_000_000
    let person = try! ProtectedPerson(fullName: "Ada Lovelace", phone: "+447700900123", country: "GB")

    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("sensor-fault")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try WorkflowStore(path: dir + "/detectord.sqlite")
        try store.saveContact(Contact(name: "Bob", phone: "+33612345678", channel: "sms"))
        try store.saveContact(Contact(name: "Hook", phone: "+33611111111", channel: "webhook"))
        try store.apply(.startProtection(person, gnssConfigured: false, hasFix: false), at: 0)
        try body(store)
    }

    @Test func theContactsAreToldOnceWhenTheFaultHasLasted() throws {
        try withStore { store in
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: true, since: 10 * s, at: 11 * s) }
            // A second report of the same fault keeps its start.
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: true, since: 20 * s, at: 21 * s) }
            #expect(try store.transaction { tx in try tx.sensorFaultSince() } == 10 * s)
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 600, at: 500 * s) } == false)
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 600, at: 611 * s) })
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 600, at: 2000 * s) } == false, "once per fault")
            let queued = try store.waiting().filter { $0.kind == "sensor_fault" }
            #expect(queued.map(\.recipient).sorted() == ["+33611111111", "+33612345678", "log"])
            #expect(try store.workflow().state == .noEmergency, "a fault is not an emergency")
        }
    }

    /// A sensor working again before its message went (a phone off, a channel down): the message
    /// would tell of a fault that is over, so it is given up.
    @Test func aFaultOverBeforeItsMessageWentIsNotTold() throws {
        try withStore { store in
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: true, since: 10 * s, at: 11 * s) }
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 600, at: 611 * s) })
            try store.enqueue(.lowBattery, at: 612 * s)
            #expect(try store.waiting().contains { $0.kind == "sensor_fault" })
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: false, since: 700 * s, at: 700 * s) }
            let waiting = try store.waiting()
            #expect(!waiting.contains { $0.kind == "sensor_fault" })
            #expect(waiting.contains { $0.kind == "low_battery" }, "other messages still go")
            #expect(try store.journal().contains { $0.type == "undeliverable" && $0.payload.contains("over before it went (sensor_ok)") })
        }
    }

    @Test func aRecoveredSensorStartsOverAndIsJournalled() throws {
        try withStore { store in
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: true, since: 0, at: 1 * s) }
            try store.transaction { tx in try tx.recordSensorFault(isFaulty: false, since: 30 * s, at: 30 * s) }
            #expect(try store.transaction { tx in try tx.sensorFaultSince() } == nil)
            #expect(try store.transaction { tx in try tx.remindSensorFault(afterSeconds: 10, at: 100 * s) } == false, "nothing to tell once it works")
            let kinds = try store.journal().map(\.type)
            #expect(kinds.contains("sensor_fault") && kinds.contains("sensor_ok"), "\(kinds)")
        }
    }
}

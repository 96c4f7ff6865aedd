import FallDetect
import Foundation
import Testing
@testable import detectord

/// What `/api/status` shows, from a real SQLite store.
@Suite struct DaemonStatusTests {
    /// A fall, then a body lying still, reads as a device set down. "Not worn" beside the alarm
    /// could have it taken for a false one: it is shown only outside an emergency.
    @Test func notWornIsNotShownBesideAnEmergency() throws {
        let protected = try ProtectedStore("status")
        defer { try? FileManager.default.removeItem(at: protected.directory) }
        let store = protected.store
        let status = DaemonStatus(store: store, sensorSummary: "test", nominalRate: 100, profile: "walking", gnssSummary: "none")
        func detector() throws -> [String: Any] { try status.report()["detector"] as? [String: Any] ?? [:] }
        let now = WorkflowService.utcNow()
        try store.transaction { tx in try tx.recordWear(isWorn: false, since: now - 60_000_000_000, at: now) }
        #expect(try detector()["worn"] as? Bool == false)
        #expect(try detector()["not_worn_since"] is String)

        _ = try store.apply(.detection(.automaticFall), at: now)
        let during = try detector()
        #expect(during["worn"] == nil, "\(during)")
        #expect(try detector()["not_worn_since"] == nil)

        _ = try store.apply(.imFine, at: now + 1_000_000_000)
        #expect(try detector()["worn"] as? Bool == false, "shown again once the emergency is over")
    }
}

import Foundation
import Testing
@testable import FallDetect

/// What the configuration file decides at each start, against a real SQLite store.
@Suite struct WorkflowTransactionConfigurationTests {
    private func withStore(_ body: (WorkflowStore) throws -> Void) throws {
        let dir = try SharedData.temporaryDirectory("configuration")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try WorkflowStore(path: dir + "/detectord.sqlite"))
    }

    private func adopt(_ store: WorkflowStore, pinHash: String?, duressHash: String?) throws {
        _ = try store.transaction { tx in
            try tx.adopt(person: nil, contacts: nil, pinHash: pinHash, duressHash: duressHash, settings: WorkflowSettings(), gnssConfigured: false, at: 0)
        }
    }

    /// A new PIN from the file starts with no wrong tries, as one set on the page does; the same
    /// PIN at each start keeps its count (a restart must not reset a lockout).
    @Test func aNewPINFromTheFileIsNotLockedByTheOldOnesTries() throws {
        try withStore { store in
            try adopt(store, pinHash: try PINHasher.hash("4821"), duressHash: nil)
            func settings(_ pin: String) throws -> SetupOutcome { try store.transaction { try $0.setUp(.unlock, pin: pin, at: 0) } }
            for _ in 0..<4 { _ = try settings("0000") }
            guard case .lockedOut = try settings("4821") else { Issue.record("the wrong tries lock Settings"); return }
            let kept = try #require(try store.setting("pinHash", as: String.self))
            try adopt(store, pinHash: kept, duressHash: nil)
            guard case .lockedOut = try settings("4821") else { Issue.record("the same PIN at a start keeps its lockout"); return }
            try adopt(store, pinHash: try PINHasher.hash("7305"), duressHash: nil)
            #expect(try settings("7305") == .done([]), "root's new PIN works at once")
        }
    }

    /// The duress PIN is the file's alone: a file that stops giving `[pin]` leaves none, rather
    /// than one the page can neither show nor remove. The PIN itself stays, for the page to change.
    @Test func theDuressPINLastsOnlyWhileTheFileGivesIt() throws {
        try withStore { store in
            let pin = try PINHasher.hash("4821")
            try adopt(store, pinHash: pin, duressHash: try PINHasher.hash("9173"))
            #expect(try store.setting("duressHash", as: String.self) != nil)
            try adopt(store, pinHash: pin, duressHash: nil)
            #expect(try store.setting("duressHash", as: String.self) == nil, "a file with [pin] and no duress_hash has none")
            try adopt(store, pinHash: pin, duressHash: try PINHasher.hash("9173"))
            try adopt(store, pinHash: nil, duressHash: nil)
            #expect(try store.setting("duressHash", as: String.self) == nil, "a file without [pin] has none")
            #expect(try store.setting("pinHash", as: String.self) == pin)
        }
    }
}

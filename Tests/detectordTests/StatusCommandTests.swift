import Foundation
import Testing
@testable import detectord

@Suite struct StatusCommandTests {
    /// Runs `script` as a drill on a fresh database in a folder of its own; returns the database's
    /// path (the caller removes the folder).
    private func drill(_ script: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("w.sqlite").path
        let path = dir.appendingPathComponent("s.jsonl").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try DetectordProcess.run(["drill", path, "--db", db]).status == 0)
        return db
    }

    @Test func showsTheStateCountdownsContactsAndIncidents() throws {
        // A keychain SOS at drill second 2 that goes out at 32; the drill's clock starts 2026-01-01T12:00Z.
        let db = try drill("""
            {"at": 0, "do": "start", "name": "Ada Lovelace", "phone": "+447700900123", "country": "GB"}
            {"at": 0, "do": "contact", "name": "Charles", "phone": "+447700900456"}
            {"at": 2, "do": "sos", "source": "keychain"}
            {"at": 40, "do": "advance"}
            """)
        defer { try? FileManager.default.removeItem(atPath: (db as NSString).deletingLastPathComponent) }

        let output = try DetectordProcess.run(["status", "--db", db, "--at", "1767268900"]) // drill second 100
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput
        #expect(text.contains("protection: on for Ada Lovelace (+447700900123, GB)"))
        #expect(text.contains("state:      EMERGENCY_SENT"))
        #expect(text.contains("keychain:   next message in 03:52"), "repeats 5 min after sending at 32 s")
        #expect(text.contains("tracking:   28:52 left (until 2026-01-01T12:30:32Z)"), "30 min from the delivery at 32 s")
        #expect(text.contains("contacts:   Charles +447700900456 (console)"))
        #expect(text.contains("incident 1: manual at 2026-01-01T12:00:02Z, sent at 2026-01-01T12:00:32Z, ongoing"))
    }

    /// With the network down since drill second 0, the alert sent at 32 s is probed at 32, 34 and
    /// 38 s (2 s doubling); the next try is at 46 s.
    @Test func showsAChannelThatIsDown() throws {
        let db = try drill("""
            {"at": 0, "do": "start", "name": "Ada Lovelace", "phone": "+447700900123", "country": "GB"}
            {"at": 0, "do": "contact", "name": "Charles", "phone": "+447700900456"}
            {"at": 0, "do": "network", "up": false}
            {"at": 2, "do": "sos"}
            {"at": 40, "do": "advance"}
            """)
        defer { try? FileManager.default.removeItem(atPath: (db as NSString).deletingLastPathComponent) }

        let text = try DetectordProcess.run(["status", "--db", db, "--at", "1767268840"]).standardOutput
        #expect(text.contains("outbox:     2 messages waiting"))
        #expect(text.contains("channel:    console down since 2026-01-01T12:00:00Z, next try at 2026-01-01T12:00:46Z"), "\(text)")
        #expect(text.contains("tracking:   until 30 min after the alert is delivered"))
    }

    @Test func aMissingDatabaseIsNamed() throws {
        let output = try DetectordProcess.run(["status", "--db", "/nonexistent/w.sqlite"])
        #expect(output.status == 66)
        #expect(output.standardError.contains("/nonexistent/w.sqlite: no such database"))
    }

    @Test func clockShowsMinutesAndSeconds() {
        #expect(StatusCommand.clock(0) == "00:00")
        #expect(StatusCommand.clock(59.2) == "01:00")
        #expect(StatusCommand.clock(299) == "04:59")
        #expect(StatusCommand.clock(3600) == "60:00")
    }
}

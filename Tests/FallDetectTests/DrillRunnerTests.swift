import Foundation
import Testing
@testable import FallDetect

@Suite struct DrillRunnerTests {
    /// Runs a script from Datasets/drills on a fresh database; returns the output lines as objects.
    private func run(_ name: String, database: String? = nil) async throws -> [[String: Any]] {
        let dir = try SharedData.temporaryDirectory("drill")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        let runner = try DrillRunner(options: .init(databasePath: database ?? dir + "/drill.sqlite")) { lines.append($0) }
        try await runner.run(DrillScript(path: SharedData.packageRoot + "/Datasets/drills/" + name))
        return try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    private func transitions(_ lines: [[String: Any]]) -> [String] {
        lines.filter { $0["type"] as? String == "transition" }.map { "\($0["t"]!) \($0["to"]!)" }
    }

    private func messages(_ lines: [[String: Any]], to recipient: String = "+447700900456") -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "message" && $0["to"] as? String == recipient }
    }

    @Test func imFineSendsNothing() async throws {
        let lines = try await run("fall-im-fine.jsonl")
        #expect(transitions(lines) == ["5 ALERT_COUNTDOWN", "40 NO_EMERGENCY"])
        #expect(messages(lines).isEmpty)
    }

    /// The first fall's wearer is up again 12 s later: withdrawn, nothing sent. The second's
    /// stays down: it goes out when the countdown ends.
    @Test func upAgainWithdrawsAndStayingDownSends() async throws {
        let lines = try await run("fall-up-again.jsonl")
        #expect(transitions(lines) == ["5 ALERT_COUNTDOWN", "17 NO_EMERGENCY", "200 ALERT_COUNTDOWN", "320 EMERGENCY_SENDING", "320 EMERGENCY_SENT"])
        #expect(lines.contains { $0["type"] as? String == "transition" && $0["reason"] as? String == "up again after the fall" })
        #expect(messages(lines).first?["kind"] as? String == "alert")
        #expect(messages(lines).first?["t"] as? Int == 320)
    }

    @Test func aFallGoesOutIsTrackedAndEnds() async throws {
        let lines = try await run("fall-sent-tracking-survey.jsonl")
        #expect(transitions(lines) == ["10 ALERT_COUNTDOWN", "130 EMERGENCY_SENDING", "130 EMERGENCY_SENT", "1930 EMERGENCY_ENDED"])
        let sent = messages(lines)
        #expect(sent.first?["kind"] as? String == "alert")
        #expect((sent.first?["text"] as? String)?.hasPrefix("ALERT! Ada Lovelace has activated their fall detector alarm") == true)
        #expect(sent.last?["kind"] as? String == "tracking_stopped")
        #expect(sent.filter { $0["kind"] as? String == "location_update" }.count == 6, "on moving 66 m, then every 5 min")
        #expect(sent.allSatisfy { $0["delivered"] as? Bool == true && $0["attempt"] as? Int == 1 })
        #expect(lines.contains { $0["text"] as? String == "PIN required" })
    }

    @Test func withoutNetworkItFailsRetriesSurvivesACrashAndSendsOnce() async throws {
        let lines = try await run("no-network-then-crash.jsonl")
        // The network comes back at 1000 s: everything goes at once, not after a long backoff.
        #expect(transitions(lines) == ["2 ALERT_COUNTDOWN", "32 EMERGENCY_SENDING", "932 EMERGENCY_SENDING_FAILED", "1000 EMERGENCY_SENT"])
        #expect(lines.contains { $0["type"] as? String == "restart" && $0["state"] as? String == "EMERGENCY_SENDING" })
        let alerts = messages(lines).filter { $0["kind"] as? String == "alert" }
        #expect(alerts.map { $0["attempt"] as! Int } == Array(1...alerts.count))
        #expect(Set(alerts.map { $0["key"] as! String }).count == 1, "every retry is the same message")
        #expect(alerts.filter { $0["delivered"] as? Bool == true }.map { $0["t"] as! Int } == [1000])
        #expect(alerts.dropLast().allSatisfy { $0["reason"] as? String == "the console channel is down" })
        // One probe per channel at a time (the log's copy and Charles's alternate), never more than 15 s apart.
        let probes = lines.filter { $0["type"] as? String == "message" && $0["delivered"] as? Bool == false }.map { $0["t"] as! Int }
        #expect(zip(probes.dropFirst(), probes).allSatisfy { $0 - $1 > 0 && $0 - $1 <= 15 }, "\(probes)")
        #expect(messages(lines).filter { $0["delivered"] as? Bool == true }.map { $0["kind"] as! String } == ["alert", "keychain_repeat"], "alert first, then the newest of the repeats that waited")
    }

    /// The network down for 20 minutes from before a fall: the wearer sees sending fail after 15
    /// minutes, the device keeps trying (never more than 15 s apart), and when the network is back
    /// the alert goes first and once, with the newest position, followed by one location update
    /// instead of the ones that waited; tracking lasts 30 minutes from the delivery.
    @Test func twentyMinutesWithoutNetworkDuringAFall() async throws {
        let lines = try await run("network-down-20-minutes.jsonl")
        #expect(transitions(lines) == [
            "10 ALERT_COUNTDOWN", "130 EMERGENCY_SENDING", "1030 EMERGENCY_SENDING_FAILED", "1205 EMERGENCY_SENT", "3005 EMERGENCY_ENDED",
        ])
        let delivered = messages(lines).filter { $0["delivered"] as? Bool == true }
        #expect(delivered.first?["kind"] as? String == "alert" && delivered.first?["t"] as? Int == 1205)
        #expect(delivered.filter { $0["kind"] as? String == "alert" }.count == 1, "sent once")
        #expect((delivered.first?["text"] as? String)?.contains("51.50280, -0.14159") == true, "the newest position")
        #expect(delivered.filter { $0["t"] as? Int == 1205 }.map { $0["kind"] as! String } == ["alert", "location_update"], "one update, not the four that waited")
        let keys = delivered.map { $0["key"] as! String }
        #expect(Set(keys).count == keys.count, "no message delivered twice")
        // One probe on the channel at a time, for the log's copy and Charles's in turn.
        let tries = lines.filter { $0["type"] as? String == "message" && $0["kind"] as? String == "alert" && $0["delivered"] as? Bool == false }
            .map { $0["t"] as! Int }
        #expect(tries.first == 130 && tries.last.map { $0 >= 1190 } == true, "\(tries)")
        #expect(zip(tries.dropFirst(), tries).allSatisfy { $0 - $1 <= 15 }, "kept trying: \(tries)")
    }

    @Test func duressKeepsTheEmergencyAndBadLinesDoNotStopTheRun() async throws {
        let lines = try await run("duress-and-bad-lines.jsonl")
        #expect(lines.filter { $0["type"] as? String == "error" }.map { $0["line"] as! Int } == [5, 6, 7])
        let kinds = messages(lines).map { $0["kind"] as! String }
        #expect(kinds == ["alert", "duress", "low_battery"], "no all clear after the duress PIN")
        #expect(transitions(lines).suffix(2) == ["123 EMERGENCY_SENT", "130 NO_EMERGENCY"], "the device shows a disarm: \(transitions(lines))")
        #expect(lines.contains { $0["type"] as? String == "note" && $0["text"] as? String == "no emergency to cancel" }, "as an idle device answers")
    }

    @Test func aKilledDrillResumesFromItsDatabase() async throws {
        let dir = try SharedData.temporaryDirectory("drill-resume")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/drill.sqlite"
        let script = DrillScript(text: """
            {"at": 0, "do": "start", "name": "Ada Lovelace", "phone": "+447700900123", "country": "GB"}
            {"at": 0, "do": "contact", "name": "Charles", "phone": "+447700900456"}
            {"at": 10, "do": "detect", "kind": "fall"}
            {"at": 200, "do": "advance"}
            """, path: "inline")
        // First run stops as if killed after the countdown started (only the first three steps).
        var first: [String] = []
        try await DrillRunner(options: .init(databasePath: db)) { first.append($0) }.run(DrillScript(text: """
            {"at": 0, "do": "start", "name": "Ada Lovelace", "phone": "+447700900123", "country": "GB"}
            {"at": 0, "do": "contact", "name": "Charles", "phone": "+447700900456"}
            {"at": 10, "do": "detect", "kind": "fall"}
            """, path: "inline"))
        var second: [String] = []
        try await DrillRunner(options: .init(databasePath: db)) { second.append($0) }.run(script)
        #expect(second.first == #"{"t":10,"type":"resume","state":"ALERT_COUNTDOWN"}"#)
        #expect(second.contains { $0.contains(#""t":130,"type":"transition","from":"ALERT_COUNTDOWN","to":"EMERGENCY_SENDING""#) })
        #expect(!second.contains { $0.contains("NO_EMERGENCY\",\"to\":\"ALERT_COUNTDOWN") }, "the detection is not replayed")
    }
}

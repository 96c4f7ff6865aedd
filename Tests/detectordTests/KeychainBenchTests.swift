import Foundation
import Testing

/// `bench --keychain` counts what it measured; CI checks the counts, never the times.
@Suite struct KeychainBenchTests {
    @Test func everyPressIsDecidedAndEveryDropReconnected() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-bench-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let run = try DetectordProcess.run(["bench", "--keychain", "3", "--json", json.path])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [[String: Any]])
        #expect(rows.map { $0["count"] as? Int } == [3, 5, 3, 3], "\(rows)")
        #expect(run.standardOutput.contains("ATT path / events only, p50:"))
        let window = try #require(rows[2]["p50_microseconds"] as? Double)
        #expect(window >= 600_000, "after the window, by design: \(window) µs")
    }
}

import FallDetect
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Kills a real `detectord drill` process with SIGKILL at random instants and restarts it on the
/// same database until it finishes: the journal must come out exactly as in an uninterrupted run,
/// and every message must have gone out, under its one idempotency key.
@Suite struct DrillCrashTests {
    /// Each database tags its message keys with its own random tag: the two runs compare with it
    /// written as TAG.
    private func tag(_ path: String) throws -> String {
        try #require(try WorkflowStore(path: path).setting("messageKeyTag", as: String.self))
    }

    private func journal(_ path: String) throws -> [String] {
        let tag = try tag(path)
        return try WorkflowStore(path: path).journal().map { "\($0.time) \($0.type) \($0.payload)".replacingOccurrences(of: "-" + tag, with: "-TAG") }
    }

    private func deliveredKeys(_ output: String, tag: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "message", object["delivered"] as? Bool == true
            else { return nil }
            return (object["key"] as? String)?.replacingOccurrences(of: "-" + tag, with: "-TAG")
        }
    }

    @Test(arguments: ["fall-sent-tracking-survey.jsonl", "no-network-then-crash.jsonl"])
    func killedAtRandomInstantsItLosesNothing(_ name: String) throws {
        let script = DetectordProcess.packageRoot.appendingPathComponent("Datasets/drills/\(name)").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("drill-kill-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let reference = try DetectordProcess.run(["drill", script, "--db", dir.appendingPathComponent("reference.sqlite").path])
        #expect(reference.status == 0, "\(reference.standardError)")

        let db = dir.appendingPathComponent("killed.sqlite").path
        var output = ""
        var kills: [Int] = []
        var finished = false
        // Up to six kills at random instants, then a run left to finish.
        for round in 0..<8 where !finished {
            let process = Process()
            process.executableURL = DetectordProcess.executable
            process.arguments = ["drill", script, "--db", db, "--pace", "3000"]
            let outFile = dir.appendingPathComponent("out-\(kills.count).jsonl")
            _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outFile)
            try process.run()
            let delay = Int.random(in: 30...400)
            if round < 6 { usleep(UInt32(delay * 1000)) }
            if round < 6, process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills.append(delay)
            }
            process.waitUntilExit()
            output += (try? String(contentsOf: outFile, encoding: .utf8)) ?? ""
            finished = process.terminationReason == .exit && process.terminationStatus == 0
        }
        #expect(finished, "the drill never finished; killed after \(kills) ms")
        #expect(kills.count >= 2, "the drill should have been killed mid-way at least twice (killed after \(kills) ms)")

        let want = try journal(dir.appendingPathComponent("reference.sqlite").path)
        let have = try journal(db)
        let firstDifference = (0..<min(want.count, have.count)).first { want[$0] != have[$0] } ?? min(want.count, have.count)
        #expect(have == want, "killed after \(kills) ms; first difference at line \(firstDifference): \(want.dropFirst(firstDifference).prefix(3)) vs \(have.dropFirst(firstDifference).prefix(3))")
        let expected = Set(deliveredKeys(reference.standardOutput, tag: try tag(dir.appendingPathComponent("reference.sqlite").path)))
        let got = deliveredKeys(output, tag: try tag(db))
        #expect(Set(got) == expected, "every message went out, under the key it was queued with")
        #expect(got.count - Set(got).count <= kills.count, "a repeat only for a kill between sending and recording it")
    }
}

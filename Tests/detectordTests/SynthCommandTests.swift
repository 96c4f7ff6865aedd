import Foundation
import Testing

@Suite struct SynthCommandTests {
    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("synth-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The command writes the five scenarios the README promises (byte equality with the committed
    /// files is DemoRecordingsTests' job).
    @Test func writesTheFiveDemoRecordings() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run(["synth", dir.path])
        #expect(output.status == 0, "\(output.standardError)")
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".detrec") }.sorted()
        #expect(made == ["bike-crash.detrec", "forward-fall.detrec", "lying-down.detrec", "sitting-down.detrec", "walking.detrec"])
        #expect(output.standardOutput.split(separator: "\n").count == 5)
    }

    @Test func replayOfTheDemoSaysItIsSynthetic() throws {
        let demo = DetectordProcess.packageRoot.appendingPathComponent("Datasets/demo")
        let output = try DetectordProcess.run(["replay", "--fast", demo.path])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.contains("(synthetic)") }.count == 5)
        #expect(lines.last?.hasPrefix("5 recordings,") == true)
    }

    @Test func unwritableFolderIsReported() throws {
        let output = try DetectordProcess.run(["synth", "/proc/detectord-cannot-write-here"])
        #expect(output.status == 73)
        #expect(output.standardError.contains("/proc/detectord-cannot-write-here"))
    }
}

import Foundation
import Testing

@Suite struct SynthCommandTests {
    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("synth-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The committed demo files are exactly what `detectord synth` makes today: regenerate them
    /// with `make demo` whenever the generator changes.
    @Test func committedDemoRecordingsAreUpToDate() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run(["synth", dir.path])
        #expect(output.status == 0, "\(output.standardError)")
        let made = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".detrec") }.sorted()
        #expect(made.count == 5)
        let demo = DetectordProcess.packageRoot.appendingPathComponent("Datasets/demo")
        let committed = try FileManager.default.contentsOfDirectory(atPath: demo.path).filter { $0.hasSuffix(".detrec") }.sorted()
        #expect(committed == made)
        var total = 0
        for name in made {
            let fresh = try Data(contentsOf: dir.appendingPathComponent(name))
            let kept = try Data(contentsOf: demo.appendingPathComponent(name))
            #expect(fresh == kept, "Datasets/demo/\(name) is stale: run make demo")
            total += kept.count
        }
        #expect(total < 1_000_000, "the demo recordings stay under 1 MB (\(total) bytes)")
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

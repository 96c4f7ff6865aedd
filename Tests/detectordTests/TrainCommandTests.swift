import FallDetect
import Foundation
import Testing

@Suite struct TrainCommandTests {
    /// The model text between the generated file's triple quotes.
    static func model(in source: String) throws -> BoostedTrees {
        let parts = source.components(separatedBy: "\"\"\"")
        try #require(parts.count == 3, "expected one multi-line string")
        return try BoostedTrees(text: parts[1])
    }

    /// The candidate count in the generated file's first comment ("Trained on N fall candidates").
    static func candidates(in source: String) -> Int {
        source.components(separatedBy: "Trained on ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) } ?? 0
    }

    /// Training on two subjects writes a model that parses, differs from the shipped one's data,
    /// and comes out the same twice; without the softened copies it learns from fewer candidates.
    @Test func trainingIsReproducibleAndWritesALoadableModel() throws {
        let bench = BenchCommandTests()
        guard let root = try bench.sisFallRoot() else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("train-\(UUID())")
        for folder in ["SisFall_dataset", "SisFall_enhanced"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            for subject in ["SA03", "SE02"] {
                try FileManager.default.createSymbolicLink(
                    atPath: dir.appendingPathComponent("\(folder)/\(subject)").path, withDestinationPath: "\(root)/\(folder)/\(subject)")
            }
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        var sources: [String] = []
        for run in 1...2 {
            let out = dir.appendingPathComponent("model\(run).swift")
            let output = try DetectordProcess.run([
                "train", "--root", dir.path, "--out", out.path, "--threshold", "0.4", "--cache", dir.appendingPathComponent("cache").path,
            ])
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput.contains("softened copies at 0.5 included) from 2 subjects"))
            sources.append(try String(contentsOf: out, encoding: .utf8))
        }
        #expect(sources[0] == sources[1])
        #expect(sources[0].contains("static let threshold: Float = 0.4"))
        #expect(sources[0].contains("SA03 SE02"))
        #expect(sources[0].contains("softened copies at 0.5 included"))
        let model = try Self.model(in: sources[0])
        // Two subjects, one of them a faller: the member without the faller is not made, so the
        // average holds one model (the header says so only when it holds more).
        #expect(model.roots.count == BoostedTreesTrainer().trees)
        #expect(!sources[0].contains("averaged over"))
        #expect(model.featureCount == FallCandidate.featureNames.count)
        // On the recorded falls only: fewer candidates, another model.
        let plain = dir.appendingPathComponent("plain.swift")
        let output = try DetectordProcess.run([
            "train", "--root", dir.path, "--out", plain.path, "--augment", "none", "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(!output.standardOutput.contains("softened"))
        let plainSource = try String(contentsOf: plain, encoding: .utf8)
        #expect(Self.candidates(in: plainSource) > 0 && Self.candidates(in: plainSource) < Self.candidates(in: sources[0]))
        let plainModel = try Self.model(in: plainSource)
        #expect(plainModel.text != model.text)
        let refused = try DetectordProcess.run(["train", "--root", dir.path, "--out", plain.path, "--augment", "0"])
        #expect(refused.status == 64 && refused.standardError.contains("--augment"), "\(refused.standardError)")
        let noBags = try DetectordProcess.run(["train", "--root", dir.path, "--out", plain.path, "--bags", "0"])
        #expect(noBags.status == 64 && noBags.standardError.contains("--bags"), "\(noBags.standardError)")
    }

    @Test func withoutLabelsTrainingRefuses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("train-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("SisFall_dataset/SA01"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run(["train", "--root", dir.path, "--out", dir.appendingPathComponent("m.swift").path])
        #expect(output.status == 66)
        #expect(output.standardError.contains("SisFall_enhanced"))
    }
}

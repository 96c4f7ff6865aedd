import FallDetect
import Foundation
import Testing

@Suite struct TrainCommandTests {
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
            let out = dir.appendingPathComponent("model\(run).txt")
            let output = try DetectordProcess.run([
                "train", "--root", dir.path, "--out", out.path, "--threshold", "0.4", "--cache", dir.appendingPathComponent("cache").path,
            ])
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput.contains("softened copies at 0.5 included) from 2 subjects"))
            sources.append(try String(contentsOf: out, encoding: .utf8))
        }
        #expect(sources[0] == sources[1])
        let file = try FallModelFile(text: sources[0], path: "model1.txt")
        #expect(file.text == sources[0])
        #expect(file.threshold == 0.4)
        #expect(file.subjects == ["SA03", "SE02"])
        #expect(file.augmentation.scales == [0.5])
        #expect(file.trainer == BoostedTreesTrainer())
        let model = file.trees
        // Two subjects, one of them a faller: the member without the faller is not made, so the
        // average holds one model of the five bags.
        #expect(model.roots.count == BoostedTreesTrainer().trees)
        #expect(file.models == 1 && sources[0].contains("\nbags 5\nmodels 1\n"))
        #expect(model.featureCount == FallCandidate.featureNames.count)
        #expect(model != (try FallModelFile.shipped()).trees)
        // On the recorded falls only: fewer candidates, another model.
        let plain = dir.appendingPathComponent("plain.txt")
        let output = try DetectordProcess.run([
            "train", "--root", dir.path, "--out", plain.path, "--augment", "none", "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(!output.standardOutput.contains("softened"))
        let plainFile = try FallModelFile.load(path: plain.path)
        #expect(plainFile.augmentation.scales.isEmpty && plainFile.threshold == 0.5)
        #expect(plainFile.candidates > 0 && plainFile.candidates < file.candidates)
        #expect(plainFile.falls > 0 && plainFile.falls < file.falls)
        #expect(plainFile.trees.text != model.text)
        let refused = try DetectordProcess.run(["train", "--root", dir.path, "--out", plain.path, "--augment", "0"])
        #expect(refused.status == 64 && refused.standardError.contains("--augment"), "\(refused.standardError)")
        let noBags = try DetectordProcess.run(["train", "--root", dir.path, "--out", plain.path, "--bags", "0"])
        #expect(noBags.status == 64 && noBags.standardError.contains("--bags"), "\(noBags.standardError)")
    }

    @Test func withoutLabelsTrainingRefuses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("train-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("SisFall_dataset/SA01"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run(["train", "--root", dir.path, "--out", dir.appendingPathComponent("m.txt").path])
        #expect(output.status == 66)
        #expect(output.standardError.contains("SisFall_enhanced"))
    }
}

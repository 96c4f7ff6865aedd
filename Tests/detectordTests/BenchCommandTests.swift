import FallDetect
import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// The unpacked SisFall development split, unpacking it on first use; nil (a failure under
    /// CI=true, a SKIPPED line otherwise) when ../shared/datasets is absent.
    func sisFallRoot() throws -> String? {
        let package = DetectordProcess.packageRoot
        let archive = package.deletingLastPathComponent().appendingPathComponent("shared/datasets/sisfall-dev.tar.xz").path
        guard FileManager.default.fileExists(atPath: archive) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("\(archive) not found; CI needs ../shared beside the package")
            } else {
                print("SKIPPED: ../shared/datasets not found")
            }
            return nil
        }
        let destination = package.appendingPathComponent(".cache/datasets").path
        return try DatasetArchive(archivePath: archive, destination: destination).unpack() + "/sisfall"
    }

    /// A SisFall-shaped folder holding two young subjects (symlinks) and one elderly one.
    func subset(of root: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
        let raw = dir.appendingPathComponent("SisFall_dataset")
        try FileManager.default.createDirectory(at: raw, withIntermediateDirectories: true)
        for subject in ["SA01", "SA02", "SE01"] {
            try FileManager.default.createSymbolicLink(
                atPath: raw.appendingPathComponent(subject).path, withDestinationPath: "\(root)/SisFall_dataset/\(subject)")
        }
        return dir
    }

    @Test func writesTheReportForASubset() throws {
        guard let root = try sisFallRoot() else { return }
        let dir = try subset(of: root)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("bench.json")
        let output = try DetectordProcess.run([
            "bench", "--dataset", "sisfall", "--root", dir.path, "--detector", "c8", "--protocol", "trial",
            "--folds", "3", "--json", json.path, "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("C8"))
        #expect(output.standardOutput.contains("3 subjects"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(report["dataset"] as? String == "sisfall")
        #expect(report["root"] as? String == dir.path)
        let trials = try #require(report["trials"] as? Int)
        let falls = try #require(report["falls"] as? Int)
        let adls = try #require(report["adls"] as? Int)
        #expect(falls == 150 && trials == falls + adls)
        #expect((report["adl_hours"] as? Double ?? 0) > 0.5)
        let detectors = try #require(report["detectors"] as? [[String: Any]])
        #expect(detectors.count == 1)
        let c8 = try #require(detectors.first)
        #expect(c8["name"] as? String == "C8")
        #expect(c8["protocol"] as? String == "trial")
        #expect(c8["folds"] as? Int == 3)
        for key in ["sensitivity", "specificity", "balanced_accuracy"] {
            let value = try #require(c8[key] as? Double, "\(key)")
            #expect(value > 0.5 && value <= 1, "\(key) \(value)")
        }
        let perFold = try #require(c8["fold_balanced_accuracy"] as? [Any])
        #expect(perFold.count == 3)
        // SE01 never fell: its fold has no AC, written as null.
        #expect(perFold.contains { $0 is NSNull })
        let groups = try #require(c8["by_group"] as? [String: [String: Any]])
        #expect(groups["young"]?["falls"] as? Int == 150)
        #expect(groups["elderly"]?["sensitivity"] is NSNull)
        #expect(groups["elderly"]?["specificity"] is Double)
        let perActivity = try #require(c8["per_activity"] as? [String: [String: Int]])
        #expect(perActivity["F01"]?["trials"] == 10)
        #expect(perActivity.values.reduce(0) { $0 + ($1["trials"] ?? 0) } == trials)
        #expect(perActivity.keys.contains("D19"))
        let samples = try #require(c8["samples"] as? Int)
        #expect(samples > 1_000_000)
        #expect((c8["seconds"] as? Double ?? 0) > 0)
        #expect((c8["samples_per_second"] as? Double ?? 0) > 0)
    }

    @Test func onlineProtocolAndPlotAreNotImplementedYet() throws {
        let online = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--protocol", "online"])
        #expect(online.status == 69)
        #expect(online.standardError.contains("not implemented yet"))
        let plot = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--plot", "out.svg"])
        #expect(plot.status == 69)
        #expect(plot.standardError.contains("--plot is not implemented yet"))
    }

    @Test func badArgumentsAreRefused() throws {
        let detector = try DetectordProcess.run(["bench", "--root", "/nonexistent", "--detector", "c7"])
        #expect(detector.status == 64)
        #expect(detector.standardError.contains("--detector"))
        let missing = try DetectordProcess.run(["bench", "--root", "/nonexistent"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("/nonexistent/SisFall_dataset"))
        let help = try DetectordProcess.run(["bench", "--help"])
        #expect(help.status == 0)
        for option in ["--dataset", "--root", "--detector", "--protocol", "--folds", "--json", "--cache", "--plot"] {
            #expect(help.standardOutput.contains(option), "\(option)")
        }
    }

    /// More folds than subjects is a usage error naming both counts.
    @Test func tooManyFolds() throws {
        guard let root = try sisFallRoot() else { return }
        let dir = try subset(of: root)
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try DetectordProcess.run([
            "bench", "--root", dir.path, "--detector", "c2", "--folds", "5", "--cache", dir.appendingPathComponent("cache").path,
        ])
        #expect(output.status == 64)
        #expect(output.standardError.contains("5 folds by subject need at least 5 subjects; the data holds 3"))
    }
}

import Foundation
import Testing
@testable import FallDetect

@Suite struct DescribedDatasetTests {
    /// Writes `files` (relative path → text) under a fresh folder.
    private func folder(_ files: [String: String]) throws -> String {
        let root = try SharedData.temporaryDirectory("described")
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return root
    }

    private func rows(_ labels: [Int]) -> String {
        "ax,ay,az,label\n" + labels.map { "0,0,1,\($0)\n" }.joined()
    }

    private func continuous(falls: DatasetFallSource = .labels(values: [9]), removal: Double? = nil) throws -> DatasetDescription {
        var format = try CSVFormat(columns: "ax=ax,ay=ay,az=az")
        format.sampleRate = 10
        return DatasetDescription(
            name: "t", kind: .continuous, files: "rec/*.csv", subjectPattern: "^rec/(p[0-9]+)_", format: format, axes: .mapping(.identity),
            labels: .column(.name("label")), unlabelledValue: 0, labelNames: [1: "walking"], falls: falls, removalMargin: removal)
    }

    @Test func labelColumnGivesLabelsFallRunsAndTheRemovalTail() throws {
        let root = try folder(["rec/p1_a.csv": rows([0, 1, 9, 9, 1, 9, 1, 0, 0, 0]), "rec/p2_b.csv": rows([1, 1]), "rec/notes.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let data = try DescribedDataset(description: continuous(removal: 0.1), root: root)
        #expect(data.entries.map(\.relativePath) == ["rec/p1_a.csv", "rec/p2_b.csv"])
        #expect(data.entries.map(\.subject) == ["p1", "p2"])
        let loaded = data.loadAll(workers: 2)
        #expect(loaded.failures.isEmpty)
        let first = loaded.recordings[0]
        #expect(first.name == "p1_a")
        // The dataset's "unlabelled" value becomes LabelledRecording's.
        #expect(first.labels == [-1, 1, 9, 9, 1, 9, 1, -1, -1, -1])
        // Each run of fall labels is a fall in a continuous recording.
        #expect(first.fallSpans == [200_000_000...300_000_000, 500_000_000...500_000_000])
        // Last labelled sample at 0.6 s, plus the margin.
        #expect(first.removalStartNanoseconds == 700_000_000)
        #expect(loaded.recordings[1].removalStartNanoseconds == nil)
        #expect(first.activity(at: 100_000_000) == "walking")
    }

    @Test func aPatternThatMatchesNothingIsAnError() throws {
        let root = try folder(["other/p1_a.csv": rows([1])])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: FallDetectError.self) { try DescribedDataset(description: continuous(), root: root) }
    }

    @Test func autoAxesKeepTheSensorFrameForThePipelineToEstimate() throws {
        var description = try continuous()
        description.axes = .auto
        let root = try folder(["rec/p1_a.csv": rows([1, 1, 1, 1])])
        let dataset = try DescribedDataset(description: description, root: root)
        #expect(dataset.format.axisMapping == .identity)
        let loaded = dataset.loadAll()
        #expect(!loaded.recordings.isEmpty && loaded.recordings.allSatisfy(\.estimatesMounting))
    }

    @Test func spanFileGivesFallsInSeconds() throws {
        let root = try folder(["rec/p1_a.csv": rows([1, 1, 1, 1]), "falls.csv": "file,start,end\np1_a.csv,0.1,0.25\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let loaded = try DescribedDataset(description: continuous(falls: .spanFile("falls.csv")), root: root).loadAll()
        #expect(loaded.recordings[0].fallSpans == [100_000_000...250_000_000])
    }

    /// A SisFall-like folder: raw counts with ';' tails, labels in a parallel tree.
    private func trials(_ labelFiles: [String: String]) throws -> (DatasetDescription, String) {
        let row = "256,0,0,0,0,0,1,2,3;\n"
        var files = [
            "raw/S01/F01_S01.txt": String(repeating: row, count: 6), "raw/S01/D01_S01.txt": String(repeating: row, count: 4),
            "raw/S02/F01_S02.txt": String(repeating: row, count: 3),
        ]
        for (path, text) in labelFiles { files[path] = text }
        let root = try folder(files)
        var format = try CSVFormat(columns: "ax=0,ay=1,az=2,gx=3,gy=4,gz=5")
        format.sampleRate = 200
        format.accelerationScale = 1.0 / 256
        let description = DatasetDescription(
            name: "s", kind: .trials(fallTrials: "^F"), files: "raw/*/*.txt", format: format, axes: .mapping(.sisFall),
            labels: .file(try PathTemplate("lab/{parent}/{file}")), falls: .labels(values: [2]))
        return (description, root)
    }

    @Test func labelFilesAreReconciledAndUnscorableFallTrialsLeftOut() throws {
        let (description, root) = try trials([
            // One label too many: the last is dropped. A fall flickers: one span, first to last.
            "lab/S01/F01_S01.txt": "0\n2\n1\n2\n0\n0\n0\n",
            // A fall inside an ADL trial is ignored.
            "lab/S01/D01_S01.txt": "0\n2\n0\n0\n",
            // No label file for S02's fall: it cannot be scored.
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let data = try DescribedDataset(description: description, root: root)
        #expect(data.entries.map(\.subject) == ["S01", "S01", "S02"])
        #expect(data.entries.map(\.isFallTrial) == [false, true, true])
        let loaded = data.loadAll()
        #expect(loaded.recordings.map(\.name) == ["D01_S01", "F01_S01"])
        #expect(loaded.isFallTrial == [false, true])
        #expect(loaded.recordings[0].fallSpans.isEmpty)
        #expect(loaded.recordings[1].fallSpans == [5_000_000...15_000_000])
        #expect(loaded.recordings[1].labels.count == 6)
        // Sensor x is body -y in SisFall's mounting.
        #expect(loaded.recordings[1].recording.samples[0].acceleration == SIMD3(0, -1, 0))
        #expect(loaded.notices.contains { $0.contains("the last label dropped") })
        #expect(loaded.notices.contains { $0.contains("inside ADL trial D01_S01") })
        #expect(loaded.notices.contains { $0.contains("F01_S02.txt: fall trial without a labelled fall; left out") })
    }

    @Test func trialEvaluationCountsTrialsAndADLHours() throws {
        let (description, root) = try trials(["lab/S01/F01_S01.txt": "0\n2\n2\n0\n0\n0\n", "lab/S02/F01_S02.txt": "0\n0\n2\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let loaded = try DescribedDataset(description: description, root: root).loadAll()
        // Nothing moves in these trials: no detection, the falls missed, the ADL cleared.
        let result = try DescribedTrialEvaluation.evaluate(loaded.recordings, isFall: loaded.isFallTrial, profile: .walking)
        #expect(result.counts == ConfusionCounts(fallsDetected: 0, fallsMissed: 2, adlsCleared: 1, falseAlarms: 0))
        #expect(abs(result.adlHours - 4.0 / 200 / 3600) < 1e-12)
        #expect(result.missedFalls == ["F01_S01", "F01_S02"])
        #expect(result.latencies.isEmpty)
    }
}

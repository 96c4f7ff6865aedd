import FallDetect
import Foundation
import Testing
@testable import detectord

/// The shipped descriptions against the dedicated loaders, on the shared development data: the
/// description must give the same recordings and the same figures.
@Suite(.serialized) struct DescribedBenchTests {
    static var descriptions: String { DetectordProcess.packageRoot.appendingPathComponent("Datasets/descriptions").path }


    /// The acceptance test of the HAPT description: the recordings `HAPTDataset` loads, sample for
    /// sample, and so every detector's detections and hours.
    @Test func haptDescriptionGivesTheFiguresOfDatasetHAPT() throws {
        guard let root = try SharedDatasets.unpacked("hapt-dev.tar.xz", "hapt") else { return }
        let description = try DatasetDescriptionFile.load(path: Self.descriptions + "/hapt.toml")
        let loaded = try DescribedDataset(description: description, root: root).loadAll()
        #expect(loaded.failures.isEmpty && loaded.problems.isEmpty && loaded.notices.isEmpty)
        let hapt = try HAPTDataset(root: root)
        let reference = try hapt.files.map { try hapt.load($0).recording }
        #expect(loaded.recordings.count == 31 && reference.count == 31)
        for (a, b) in zip(loaded.recordings, reference) {
            #expect(a.name == b.name && a.subject == b.subject)
            #expect(a.recording.samples == b.recording.samples, "\(a.name)")
            #expect(a.recording.info.sensor.sampleRate == b.recording.info.sensor.sampleRate)
            #expect(a.labels == b.labels && a.removalStartNanoseconds == b.removalStartNanoseconds && a.fallSpans == b.fallSpans)
            #expect(a.labelNames == b.labelNames)
        }
        for detector in BenchCommand.continuousDetectors {
            let profile = BenchCommand.profile(forDetector: detector)
            let described = try ContinuousEvaluation.evaluate(loaded.recordings, profile: profile)
            let dedicated = try ContinuousEvaluation.evaluate(reference, profile: profile)
            #expect(described.detections == dedicated.detections, "\(detector)")
            #expect(described.notWorn == dedicated.notWorn)
            #expect(described.activityHours == dedicated.activityHours && described.removalSeconds == dedicated.removalSeconds)
            #expect(described.recordings == dedicated.recordings && described.removals == dedicated.removals)
        }
    }

    /// The same through the command line: every line after the title is the same.
    @Test func benchWithTheHAPTDescriptionPrintsWhatDatasetHAPTPrints() throws {
        guard let root = try SharedDatasets.unpacked("hapt-dev.tar.xz", "hapt") else { return }
        let dedicated = try DetectordProcess.run(["bench", "--dataset", "hapt", "--root", root, "--detector", "learned-unbounded"])
        let described = try DetectordProcess.run([
            "bench", "--dataset", "csv", "--describe", Self.descriptions + "/hapt.toml", "--root", root, "--detector", "learned-unbounded",
        ])
        #expect(dedicated.status == 0 && described.status == 0, "\(described.standardError)")
        let body = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() }
        #expect(Array(body(described.standardOutput)) == Array(body(dedicated.standardOutput)))
        // learned-unbounded fires at some removals: the figures compared are not all zero.
        #expect(dedicated.standardOutput.contains("removals with a detection"))
        #expect(!dedicated.standardOutput.contains("0 of 31 (0 detections)"))
    }

    /// Every SisFall trial as `SisFallDataset` sees it: names, subjects, fall trials, the same
    /// samples (spot-checked on one subject) and labels.
    @Test func sisFallDescriptionLoadsEveryTrial() throws {
        guard let root = try SharedDatasets.unpacked("sisfall-dev.tar.xz", "sisfall") else { return }
        let description = try DatasetDescriptionFile.load(path: Self.descriptions + "/sisfall.toml")
        let data = try DescribedDataset(description: description, root: root)
        let loaded = data.loadAll()
        #expect(loaded.failures.isEmpty && loaded.problems.isEmpty)
        #expect(loaded.recordings.count == 3291)
        #expect(loaded.isFallTrial.filter { $0 }.count == 1350)
        #expect(Set(loaded.recordings.map(\.subject)).count == Set(try SisFallDataset(root: root).entries.map(\.name.subject)).count)
        let sisFall = try SisFallDataset(root: root)
        let byName = Dictionary(uniqueKeysWithValues: zip(loaded.recordings.map(\.name), loaded.recordings))
        for entry in sisFall.entries where entry.name.subject == "SA01" {
            let trial = try sisFall.load(entry).trial
            let recording = try #require(byName[trial.path.split(separator: "/").last.map { String($0.dropLast(4)) } ?? ""])
            #expect(recording.subject == entry.name.subject)
            #expect(recording.recording.samples.map(\.acceleration) == trial.samples.map(\.acceleration))
            #expect(recording.recording.samples.map(\.timestampNanoseconds) == trial.samples.map(\.timestampNanoseconds))
            // 1/14.375 multiplies in Double here, in Float there: at most a rounding apart.
            for (a, b) in zip(recording.recording.samples, trial.samples) {
                let d = a.angularRate - b.angularRate
                let bound = max(1e-6, max(abs(b.angularRate.x), abs(b.angularRate.y), abs(b.angularRate.z)) * 1.2e-7)
                #expect(max(abs(d.x), abs(d.y), abs(d.z)) <= bound)
            }
            #expect(recording.labels.map { UInt8($0) } == (trial.labels ?? []))
            #expect(recording.fallSpans.first == OnlineTrial.fallSpan(labels: trial.labels, samplePeriodNanoseconds: SisFallTrial.samplePeriodNanoseconds).flatMap { trial.name.isFall ? $0 : nil })
        }
    }

    /// The learned detector through the walking profile finds the falls the online protocol's
    /// learned detector finds (`bench --protocol online --detector learned`): the same missed falls.
    @Test func sisFallDescriptionGivesTheOnlineProtocolsSensitivity() throws {
        guard let root = try SharedDatasets.unpacked("sisfall-dev.tar.xz", "sisfall") else { return }
        let description = try DatasetDescriptionFile.load(path: Self.descriptions + "/sisfall.toml")
        let loaded = try DescribedDataset(description: description, root: root).loadAll()
        let falls = loaded.recordings.indices.filter { loaded.isFallTrial[$0] }
        let described = try DescribedTrialEvaluation.evaluate(
            falls.map { loaded.recordings[$0] }, isFall: falls.map { _ in true }, profile: BenchCommand.profile(forDetector: "learned"))
        let scan = try OnlineScan(dataset: SisFallDataset(root: root), fallsOnly: true)
        let online = OnlineProtocol.evaluate(try LearnedFallJudge.shipped(), on: scan.trials)
        #expect(described.counts.falls == 1350 && online.counts.falls == 1350)
        #expect(described.counts.fallsDetected == online.counts.fallsDetected)
        #expect(described.missedFalls.sorted() == online.missedFalls.map(\.description).sorted())
        print("SisFall falls, learned: described \(described.counts.fallsDetected)/\(described.counts.falls), online \(online.counts.fallsDetected)/\(online.counts.falls)")
    }
}

import CFusion
import Foundation
import Synchronization
import Testing

@testable import FallDetect

/// Integration tests on the real SisFall development split (../shared/datasets), plus small
/// folders built from it to exercise subsets and damage.
@Suite(.serialized) struct SisFallDatasetTests {
    // MARK: - The whole development split

    @Test func manifestListsExactlyTheFilesAndHashesAgree() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let manifest = try String(contentsOfFile: SharedData.sisFallManifest, encoding: .utf8)
        let listed = Set(manifest.split(separator: "\n").map { line in
            String(line.split(separator: " ", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces).dropFirst(2))
        })
        var found = Set<String>()
        let walker = FileManager.default.enumerator(atPath: root)!
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue {
                found.insert(path)
            }
        }
        #expect(listed.count == 6578)
        #expect(found == listed)
        #expect(found.filter { $0.hasPrefix("SisFall_dataset/S") }.count == 3291)
        // Every file's sha256, with coreutils in one process.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["sha256sum", "--quiet", "--strict", "-c", SharedData.sisFallManifest]
        check.currentDirectoryURL = URL(fileURLWithPath: root)
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "sha256sum: \(text.prefix(2000))")
    }

    @Test func everyTrialParsesWithOneRowPerNewline() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dataset = try SisFallDataset(root: root)
        #expect(dataset.entries.count == 3291)
        #expect(dataset.entries.filter(\.name.isFall).count == 1350)
        #expect(dataset.entries.filter { $0.labelPath != nil }.count == 3286)
        let failures = Mutex<[String]>([])
        let rows = Atomic<Int>(0)
        dataset.forEachIndex(workers: nil) { i in
            let path = dataset.entries[i].rawPath
            do {
                let bytes = try SisFallParser.readFile(path)
                let values = try SisFallParser.parse(bytes, path: path)
                let newlines = cfusion_sisfall_count_newlines(bytes, bytes.count)
                if values.count != newlines * 9 {
                    failures.withLock { $0.append("\(path): \(values.count / 9) rows, \(newlines) newlines") }
                }
                rows.add(values.count / 9, ordering: .relaxed)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(rows.load(ordering: .relaxed) > 11_000_000)
    }

    /// At the start of a trial the wearer is mostly still: |a| near 1 g. What the data shows
    /// (checked when this test was written): per-trial means of the first 200 samples range from
    /// 0.82 to 1.44 g on the ADXL345 and 0.88 to 1.41 g on the MMA8451Q, the high ones being
    /// jogging trials (D03/D04) that start in motion; the median is close to 1 g.
    @Test func firstSecondMeanAccelerationIsAboutOneG() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dataset = try SisFallDataset(root: root)
        let means = Mutex<[(String, Float, Float)]>([])
        let problems = Mutex<[String]>([])
        let notices = dataset.forEachTrial { trial in
            guard trial.samples.count >= 200 else {
                problems.withLock { $0.append("\(trial.path): only \(trial.samples.count) samples") }
                return
            }
            if let labels = trial.labels, labels.count != trial.samples.count {
                problems.withLock { $0.append("\(trial.path): \(labels.count) labels") }
            }
            if trial.samples[199].timestampNanoseconds != 199 * 5_000_000 {
                problems.withLock { $0.append("\(trial.path): timestamps") }
            }
            var a: Float = 0
            var m: Float = 0
            for i in 0..<200 {
                a += trial.samples[i].accelerationMagnitude
                let v = trial.mma8451qAcceleration[i]
                m += (v * v).sum().squareRoot()
            }
            means.withLock { $0.append((trial.name.description, a / 200, m / 200)) }
        }
        #expect(problems.withLock { $0 } == [])
        #expect(!notices.contains { $0.contains("skipped") })
        let all = means.withLock { $0 }
        #expect(all.count == 3291)
        for (name, a, m) in all {
            #expect(a > 0.75 && a < 1.5, "\(name): ADXL345 \(a) g")
            #expect(m > 0.75 && m < 1.5, "\(name): MMA8451Q \(m) g")
        }
        let medianA = all.map(\.1).sorted()[all.count / 2]
        let medianM = all.map(\.2).sorted()[all.count / 2]
        #expect(medianA > 0.9 && medianA < 1.1, "median \(medianA)")
        #expect(medianM > 0.9 && medianM < 1.1, "median \(medianM)")
        // Standing still the body-frame z axis carries gravity (+1 g up), per AxisMapping.sisFall.
        let still = try dataset.load(dataset.entries.first { $0.name.description == "D07_SA01_R01" }!).trial
        let z = still.samples[0..<200].reduce(Float(0)) { $0 + $1.acceleration.z } / 200
        #expect(z > 0.7 && z < 1.2, "mean body z \(z)")
    }

    @Test func knownQuirksProduceNotices() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let dataset = try SisFallDataset(root: root)
        let notices = dataset.notices
        func has(_ parts: String...) -> Bool { notices.contains { n in parts.allSatisfy { n.contains($0) } } }
        #expect(has("SisFall_dataset/SA17:", "missing", "D06_SA17_R01"))
        #expect(!has("SisFall_dataset/SA17:", "D06_SA17_R02"))
        #expect(has("SisFall_dataset/SE02:", "expected trials missing"))
        #expect(has("SisFall_dataset/SA15/D17_SE15_R01.txt", "subject SE15 in folder SA15"))
        #expect(has("SisFall_dataset/SA15/D17_SE15_R05.txt", "no label file"))
        #expect(!has("Readme.txt"))
        let se15 = dataset.entries.filter { $0.name.subject == "SE15" }
        #expect(se15.count == 5 && se15.allSatisfy { $0.name.group == .elderly && $0.labelPath == nil })
        // Falls marked inside ADL: SA16/D18.
        let d18 = dataset.entries.first { $0.name.description == "D18_SA16_R01" }!
        let loaded = try dataset.load(d18)
        #expect(loaded.notices.contains { $0.contains("labels mark a fall (2) inside ADL trial D18_SA16_R01") })
        #expect(loaded.trial.labelsMarkFall == true)
        let recording = loaded.trial.recording()
        #expect(recording.events.first?.kind == .activity)
        #expect(recording.events.first?.text.hasPrefix("D18 Stumble while walking") == true)
        let labelEvents = recording.events.filter { $0.kind == .label }
        #expect(labelEvents.first?.timestampNanoseconds == 0)
        #expect(labelEvents.contains { $0.value == 2 })
        #expect(zip(labelEvents, labelEvents.dropFirst()).allSatisfy { $0.value != $1.value })
        #expect(recording.samples.count == loaded.trial.samples.count && recording.info.title == "SisFall D18 SA16 R01")
        // The unlabeled SE15 trial loads with nil labels.
        let unlabeled = try dataset.load(se15[0])
        #expect(unlabeled.trial.labels == nil && unlabeled.trial.recording().events.count == 1)
    }

    // MARK: - Small folders built from the real files

    /// A root whose SisFall_dataset/<subject> folders link to the real ones.
    static func linkedRoot(_ subjects: [String], from root: String) throws -> String {
        let dir = try SharedData.temporaryDirectory("sisfall")
        try FileManager.default.createDirectory(atPath: "\(dir)/SisFall_dataset", withIntermediateDirectories: true)
        for s in subjects {
            try FileManager.default.createSymbolicLink(
                atPath: "\(dir)/SisFall_dataset/\(s)", withDestinationPath: "\(root)/SisFall_dataset/\(s)")
        }
        return dir
    }

    @Test func twoSubjectsWithoutEnhancedLabels() throws {
        guard let real = SharedData.sisFallRoot() else { return }
        let root = try Self.linkedRoot(["SA03", "SE01"], from: real)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dataset = try SisFallDataset(root: root)
        #expect(!dataset.hasEnhancedLabels)
        #expect(dataset.entries.count == 154 + 59)
        #expect(dataset.notices.contains { $0.contains("SisFall_enhanced: not found") })
        let (trials, notices) = dataset.loadAll()
        #expect(trials.count == 213)
        #expect(trials.allSatisfy { $0.labels == nil })
        #expect(trials.map(\.name) == dataset.entries.map(\.name))
        #expect(!notices.contains { $0.contains("skipped") })
        #expect(trials.filter { $0.name.group == .elderly }.count == 59)
    }

    @Test func corruptedRowIsReportedAndTheRestLoads() throws {
        guard let real = SharedData.sisFallRoot() else { return }
        let dir = try SharedData.temporaryDirectory("sisfall-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = "\(dir)/SisFall_dataset/SA02"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(real)/SisFall_dataset/SA02").sorted()
        for file in files where file != "F03_SA02_R02.txt" {
            try FileManager.default.createSymbolicLink(
                atPath: "\(folder)/\(file)", withDestinationPath: "\(real)/SisFall_dataset/SA02/\(file)")
        }
        var lines = try String(contentsOfFile: "\(real)/SisFall_dataset/SA02/F03_SA02_R02.txt", encoding: .utf8)
            .components(separatedBy: "\r\n")
        lines[1233] = lines[1233].replacingOccurrences(of: ",", with: ";", options: [], range: nil)
        try lines.joined(separator: "\r\n").write(toFile: "\(folder)/F03_SA02_R02.txt", atomically: true, encoding: .utf8)
        let dataset = try SisFallDataset(root: dir)
        let (trials, notices) = dataset.loadAll(workers: 2)
        #expect(trials.count == files.count, "the damaged trial loads too")
        let report = notices.first { $0.contains("F03_SA02_R02.txt") }
        #expect(report?.hasPrefix("\(folder)/F03_SA02_R02.txt:1234: field 2") == true, "\(String(describing: report))")
        #expect(report?.hasSuffix("the trial goes on") == true)
        // The bad row takes the row before it; every other row is the original's.
        let damaged = try #require(trials.first { $0.name.description == "F03_SA02_R02" })
        let original: [Int16] = try SisFallParser.parse(contentsOf: "\(real)/SisFall_dataset/SA02/F03_SA02_R02.txt")
        var repaired = original
        repaired.replaceSubrange(1233 * 9..<1234 * 9, with: original[1232 * 9..<1233 * 9])
        let expected = SisFallTrial(name: damaged.name, path: damaged.path, rows: repaired, labels: nil)
        #expect(damaged.samples.count == original.count / 9)
        #expect(damaged.samples == expected.samples)
    }

    @Test func labelFilesThatDisagreeWithTheirTrial() throws {
        guard let real = SharedData.sisFallRoot() else { return }
        let dir = try Self.linkedRoot(["SA04"], from: real)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let labels = "\(dir)/SisFall_enhanced/SA04"
        try FileManager.default.createDirectory(atPath: labels, withIntermediateDirectories: true)
        func source(_ name: String) throws -> [String] {
            try String(contentsOfFile: "\(real)/SisFall_enhanced/SA04/\(name)", encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        let long = try source("F01_SA04_R01.txt") + ["2"]
        let short = Array(try source("F01_SA04_R02.txt").dropLast())
        let wrong = Array(try source("F01_SA04_R03.txt").dropLast(10))
        try (long.joined(separator: "\n") + "\n").write(toFile: "\(labels)/F01_SA04_R01.txt", atomically: true, encoding: .utf8)
        try (short.joined(separator: "\n") + "\n").write(toFile: "\(labels)/F01_SA04_R02.txt", atomically: true, encoding: .utf8)
        try (wrong.joined(separator: "\n") + "\n").write(toFile: "\(labels)/F01_SA04_R03.txt", atomically: true, encoding: .utf8)
        try "0\n7\n".write(toFile: "\(labels)/F01_SA04_R04.txt", atomically: true, encoding: .utf8)
        try "0\n".write(toFile: "\(labels)/F01_SA04_R09.txt", atomically: true, encoding: .utf8)
        let dataset = try SisFallDataset(root: dir)
        #expect(dataset.notices.contains { $0.contains("SA04/F01_SA04_R09.txt: label file without a trial") })
        #expect(dataset.notices.contains { $0.contains("SA04/F01_SA04_R05.txt: no label file") })
        func load(_ n: String) throws -> (trial: SisFallTrial, notices: [String]) {
            try dataset.load(dataset.entries.first { $0.name.description == n }!)
        }
        let a = try load("F01_SA04_R01")
        #expect(a.trial.labels?.count == a.trial.samples.count)
        #expect(a.notices.contains { $0.contains("the last label dropped") })
        let b = try load("F01_SA04_R02")
        #expect(b.trial.labels?.count == b.trial.samples.count)
        #expect(b.notices.contains { $0.contains("the last label repeated") })
        let c = try load("F01_SA04_R03")
        #expect(c.trial.labels == nil && c.notices.contains { $0.contains("labels for") && $0.contains("without labels") })
        let d = try load("F01_SA04_R04")
        #expect(d.trial.labels == nil && d.notices.contains { $0.contains("F01_SA04_R04.txt:2: label:") })
        let e = try load("F01_SA04_R05")
        #expect(e.trial.labels == nil && e.notices.isEmpty)
    }

    @Test func repetitionOutsideTheProtocolAndMissingTrials() throws {
        guard let real = SharedData.sisFallRoot() else { return }
        // SE14 is not in the development split: build its quirk (R06 instead of R04) from SE01's files.
        let dir = try SharedData.temporaryDirectory("sisfall-se14")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = "\(dir)/SisFall_dataset/SE14"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for r in [1, 2, 3, 5, 6] {
            try FileManager.default.createSymbolicLink(
                atPath: "\(folder)/D07_SE14_R0\(r).txt", withDestinationPath: "\(real)/SisFall_dataset/SE01/D07_SE01_R0\(min(r, 5)).txt")
        }
        try "x".write(toFile: "\(folder)/notes.txt", atomically: true, encoding: .utf8)
        let dataset = try SisFallDataset(root: dir)
        #expect(dataset.entries.count == 5)
        #expect(dataset.notices.contains { $0.contains("D07_SE14_R06.txt: repetition R6 beyond the protocol's 5 trial(s) of D07") })
        #expect(dataset.notices.contains { $0.contains("SE14:") && $0.contains("D07_SE14_R04") && !$0.contains("D07_SE14_R05") })
        #expect(dataset.notices.contains { $0.contains("notes.txt") && $0.contains("ignored") })
        let (trials, _) = dataset.loadAll()
        #expect(trials.count == 5 && trials.allSatisfy { $0.name.group == .elderly })
    }

    @Test func secondPassComesFromTheTrialCache() throws {
        guard let real = SharedData.sisFallRoot() else { return }
        let root = try Self.linkedRoot(["SA05"], from: real)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = try TrialCache(directory: "\(root)/cache")
        let dataset = try SisFallDataset(root: root)
        let first = dataset.loadAll(cache: cache)
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.directory).filter { $0.hasSuffix(".sftc") }
        #expect(cached.count == dataset.entries.count)
        let second = dataset.loadAll(cache: cache)
        #expect(second.notices == first.notices)
        #expect(second.trials.count == first.trials.count)
        for (x, y) in zip(first.trials, second.trials) {
            #expect(x.samples == y.samples && x.name == y.name)
        }
    }

    @Test func missingRootIsAClearError() {
        let error = #expect(throws: FallDetectError.self) { try SisFallDataset(root: "/nonexistent/sisfall") }
        #expect(error?.code == .noData && error?.path == "/nonexistent/sisfall/SisFall_dataset")
    }
}

import Foundation
import Testing

@testable import FallDetect

@Suite struct TrialCacheTests {
    static let text = "  17, -179,  -99,  -18, -504, -352,   76,-697,-279;\r\n  15,-174, -90, -53,-568,-306,  48,-675,-254;\r\n"

    /// A raw file, a label file and a cache folder in a fresh temporary directory.
    struct Fixture {
        let dir: String
        let raw: String
        let label: String
        let cache: TrialCache
        let name: SisFallTrialName

        init() throws {
            dir = try SharedData.temporaryDirectory("trialcache")
            raw = "\(dir)/F01_SA01_R01.txt"
            label = "\(dir)/F01_SA01_R01.labels"
            try TrialCacheTests.text.write(toFile: raw, atomically: true, encoding: .utf8)
            try "0\n2\n".write(toFile: label, atomically: true, encoding: .utf8)
            cache = try TrialCache(directory: "\(dir)/cache/nested")
            name = try SisFallTrialName(parsing: "F01_SA01_R01")
        }

        func remove() { try? FileManager.default.removeItem(atPath: dir) }
    }

    static let entry = TrialCache.Entry(
        rows: [17, -179, -99, -18, -504, -352, 76, -697, -279, 15, -174, -90, -53, -568, -306, 48, -675, -254],
        labels: [0, 2], notices: ["first notice", "second: with a colon"])

    @Test func roundTrip() throws {
        let f = try Fixture()
        defer { f.remove() }
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
        try f.cache.store(Self.entry, for: f.name, rawPath: f.raw, labelPath: f.label)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == Self.entry)
        let unlabeled = TrialCache.Entry(rows: Self.entry.rows, labels: nil, notices: [])
        try f.cache.store(unlabeled, for: f.name, rawPath: f.raw, labelPath: nil)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: nil) == unlabeled)
        // Keyed on the label file too: an entry stored without labels is stale once labels exist.
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.cache.directory)
        #expect(leftovers == ["F01_SA01_R01.sftc"])  // no temporary files left behind
    }

    @Test func staleWhenSizeOrMtimeChanges() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.cache.store(Self.entry, for: f.name, rawPath: f.raw, labelPath: f.label)
        // Same size, other mtime.
        let past = timespec(tv_sec: 1_000_000_000, tv_nsec: 0)
        var times = [past, past]
        #expect(utimensat(AT_FDCWD, f.raw, &times, 0) == 0)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
        try f.cache.store(Self.entry, for: f.name, rawPath: f.raw, labelPath: f.label)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) != nil)
        // Other size, same mtime.
        try (Self.text + "1,2,3,4,5,6,7,8,9;\r\n").write(toFile: f.raw, atomically: false, encoding: .utf8)
        times = [past, past]
        #expect(utimensat(AT_FDCWD, f.raw, &times, 0) == 0)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
        // The label file's stamp counts as well.
        try f.cache.store(Self.entry, for: f.name, rawPath: f.raw, labelPath: f.label)
        try "0\n1\n".write(toFile: f.label, atomically: false, encoding: .utf8)
        var later = [timespec(tv_sec: 1_500_000_000, tv_nsec: 5), timespec(tv_sec: 1_500_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, f.label, &later, 0) == 0)
        #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
    }

    @Test func corruptEntriesAreMissesAndGetRebuilt() throws {
        let f = try Fixture()
        defer { f.remove() }
        let path = f.cache.path(for: f.name)
        try f.cache.store(Self.entry, for: f.name, rawPath: f.raw, labelPath: f.label)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        for damaged in [flipped, good.prefix(good.count - 3), good.prefix(20), Data(), good + Data([0])] {
            try damaged.write(to: URL(fileURLWithPath: path))
            #expect(f.cache.lookup(f.name, rawPath: f.raw, labelPath: f.label) == nil)
        }
        // Through the dataset: a corrupt entry is rebuilt silently, with the same trial.
        let root = "\(f.dir)/root"
        try FileManager.default.createDirectory(atPath: "\(root)/SisFall_dataset/SA01", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: f.raw, toPath: "\(root)/SisFall_dataset/SA01/F01_SA01_R01.txt")
        let dataset = try SisFallDataset(root: root)
        let first = try dataset.load(dataset.entries[0], cache: f.cache)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        let second = try dataset.load(dataset.entries[0], cache: f.cache)
        #expect(second.trial.samples == first.trial.samples && second.notices == first.notices)
        #expect(f.cache.lookup(f.name, rawPath: dataset.entries[0].rawPath, labelPath: nil) != nil)
        let third = try dataset.load(dataset.entries[0], cache: f.cache)  // now from the cache
        #expect(third.trial.samples == first.trial.samples)
        #expect(third.trial.mma8451qAcceleration == first.trial.mma8451qAcceleration)
    }
}

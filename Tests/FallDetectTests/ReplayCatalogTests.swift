import Foundation
import Testing
@testable import FallDetect

@Suite struct ReplayCatalogTests {
    private func recording(_ title: String) -> Recording {
        let samples = (0..<10).map { IMUSample(timestampNanoseconds: Int64($0) * 10_000_000, acceleration: SIMD3(0, 0, 1)) }
        return Recording(info: RecordingInfo(sensor: .sisFall, title: title, isSynthetic: true), samples: samples)
    }

    @Test func directoriesListRecordingsInNameOrderAndSayWhatTheyIgnored() throws {
        let dir = try SharedData.temporaryDirectory("catalog")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try RecordingWriter.write(recording("b"), to: "\(dir)/b.detrec")
        try RecordingWriter.write(recording("a"), to: "\(dir)/a.detrec")
        try "time,ax,ay,az,gx,gy,gz\n0,0,0,1,0,0,0\n".write(toFile: "\(dir)/c.csv", atomically: true, encoding: .utf8)
        try "notes".write(toFile: "\(dir)/README.md", atomically: true, encoding: .utf8)
        try "?".write(toFile: "\(dir)/photo.jpg", atomically: true, encoding: .utf8)

        let catalog = try ReplayCatalog(paths: [dir], options: .init(cacheDirectory: dir + "/cache"))
        #expect(catalog.entries.map(\.name) == ["a.detrec", "b.detrec", "c.csv"])
        #expect(catalog.notices == ["\(dir): ignored 1 file(s) that are not recordings"])
        let first = try catalog.entries[0].load()
        #expect(first.recording.info.title == "a")
        #expect(first.recording.samples.count == 10)
        #expect(try catalog.entries[2].load().recording.samples.count == 1)
    }

    @Test func unknownFilesAndEmptyFoldersAreErrorsNamingThePath() throws {
        let dir = try SharedData.temporaryDirectory("catalog-empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect { try ReplayCatalog(paths: [dir]) } throws: { ($0 as? FallDetectError)?.path == dir }
        try "?".write(toFile: "\(dir)/x.bin", atomically: true, encoding: .utf8)
        #expect { try ReplayCatalog(paths: ["\(dir)/x.bin"]) } throws: { ($0 as? FallDetectError)?.code == .invalidArgument }
        #expect { try ReplayCatalog(paths: ["\(dir)/missing.detrec"]) } throws: { ($0 as? FallDetectError)?.code == .io }
    }

    @Test func aCorruptRecordingLoadsWhatSurvivedAndSaysWhy() throws {
        let dir = try SharedData.temporaryDirectory("catalog-corrupt")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try RecordingWriter.encode(recording("cut"))
        bytes.removeLast(3)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/cut.detrec"))
        let loaded = try ReplayCatalog(paths: ["\(dir)/cut.detrec"]).entries[0].load()
        #expect(!loaded.problems.isEmpty)
        #expect(loaded.problems.allSatisfy { $0.path == "\(dir)/cut.detrec" })
    }

    @Test func sisFallPathsAtEveryLevel() throws {
        guard let root = SharedData.sisFallRoot() else { return }
        let cache = try SharedData.temporaryDirectory("catalog-cache")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let options = ReplayCatalog.Options(cacheDirectory: cache)

        let subject = try ReplayCatalog(paths: ["\(root)/SisFall_dataset/SA01"], options: options)
        #expect(subject.entries.count == 154)
        let misfiled = try ReplayCatalog(paths: ["\(root)/SisFall_dataset/SA15"], options: options)
        #expect(misfiled.entries.contains { $0.name.contains("SE15") }, "SA15/ holds D17_SE15_* files")

        let single = try ReplayCatalog(paths: ["\(root)/SisFall_dataset/SA01/F01_SA01_R01.txt"], options: options)
        #expect(single.entries.count == 1)
        let trial = try single.entries[0].load().recording
        #expect(trial.samples.count > 2000)
        #expect(trial.events.contains { $0.kind == .label && $0.value == 2 }, "the enhanced labels come along")

        let all = try ReplayCatalog(paths: [root], options: options)
        #expect(all.entries.count == 3291)
        #expect(try ReplayCatalog(paths: ["\(root)/SisFall_dataset"], options: options).entries.count == 3291)
    }
}

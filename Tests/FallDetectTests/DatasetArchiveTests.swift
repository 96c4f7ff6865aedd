import Foundation
import Testing

@testable import FallDetect

@Suite struct DatasetArchiveTests {
    func makeArchive(in dir: String, text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(dir)/src/data", withIntermediateDirectories: true)
        try text.write(toFile: "\(dir)/src/data/a.txt", atomically: true, encoding: .utf8)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-cJf", "\(dir)/data.tar.xz", "-C", "\(dir)/src", "data"]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        return "\(dir)/data.tar.xz"
    }

    @Test func unpacksOnceEvenWhenAskedInParallel() throws {
        let dir = try SharedData.temporaryDirectory("archive")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let archive = DatasetArchive(archivePath: try makeArchive(in: dir, text: "first"), destination: "\(dir)/cache/datasets")
        #expect(!archive.isUnpacked)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            #expect((try? archive.unpack()) == "\(dir)/cache/datasets")
        }
        #expect(archive.isUnpacked)
        #expect(try String(contentsOfFile: "\(dir)/cache/datasets/data/a.txt", encoding: .utf8) == "first")
        // Already done: nothing is extracted again (a local edit survives).
        try "edited".write(toFile: "\(dir)/cache/datasets/data/a.txt", atomically: true, encoding: .utf8)
        try archive.unpack()
        #expect(try String(contentsOfFile: "\(dir)/cache/datasets/data/a.txt", encoding: .utf8) == "edited")
        // A new archive is unpacked again.
        _ = try makeArchive(in: dir, text: "second, longer")
        #expect(!archive.isUnpacked)
        try archive.unpack()
        #expect(try String(contentsOfFile: "\(dir)/cache/datasets/data/a.txt", encoding: .utf8) == "second, longer")
    }

    @Test func missingOrBrokenArchivesAreErrors() throws {
        let dir = try SharedData.temporaryDirectory("archive-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = #expect(throws: FallDetectError.self) {
            try DatasetArchive(archivePath: "\(dir)/none.tar.xz", destination: "\(dir)/out").unpack()
        }
        #expect(missing?.code == .noData)
        try "not xz".write(toFile: "\(dir)/bad.tar.xz", atomically: true, encoding: .utf8)
        let broken = DatasetArchive(archivePath: "\(dir)/bad.tar.xz", destination: "\(dir)/out")
        let error = #expect(throws: FallDetectError.self) { try broken.unpack() }
        #expect(error?.code == .io && error?.message.contains("tar -xJf failed") == true)
        #expect(!broken.isUnpacked)
    }
}

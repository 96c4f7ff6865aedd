import Foundation
import Testing
@testable import FallDetect

@Suite struct DemoRecordingsTests {
    @Test func writesOneReadableFilePerScenarioUnderOneMegabyte() throws {
        let directory = try RecordingFixtures.temporaryDirectory() + "/demo"  // created by write
        let paths = try DemoRecordings.write(to: directory)
        #expect(paths.map { ($0 as NSString).lastPathComponent } == SyntheticScenario.allCases.map(\.fileName))
        #expect(paths.contains { $0.hasSuffix("/walking.detrec") })
        var total = 0
        let generator = SyntheticGenerator(seed: DemoRecordings.seed)
        for (path, scenario) in zip(paths, SyntheticScenario.allCases) {
            let bytes = try RecordingFixtures.contents(of: path)
            total += bytes.count
            let result = try RecordingReader().read(path: path)
            #expect(result.problems.isEmpty)
            #expect(result.recording.info.isSynthetic)
            #expect(result.recording.sameContent(as: generator.generate(scenario)))
        }
        #expect(total < 1_000_000, "demo total \(total) bytes")
        // Regenerating over the same directory gives the same bytes and leaves no temporary files.
        let first = try paths.map(RecordingFixtures.contents(of:))
        _ = try DemoRecordings.write(to: directory + "/")
        #expect(try paths.map(RecordingFixtures.contents(of:)) == first)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(listing.sorted() == SyntheticScenario.allCases.map(\.fileName).sorted())
    }

    /// The files committed in Datasets/demo are what the generator makes today: a change to the
    /// generator must come with regenerated demo files (`make demo`).
    @Test func committedDemoFilesMatchTheGenerator() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let demo = root.appendingPathComponent("Datasets/demo").path
        let generator = SyntheticGenerator(seed: DemoRecordings.seed)
        for scenario in SyntheticScenario.allCases {
            let path = demo + "/" + scenario.fileName
            guard FileManager.default.fileExists(atPath: path) else {
                Issue.record("\(path) is missing; run `make demo`")
                continue
            }
            let committed = try RecordingFixtures.contents(of: path)
            #expect(committed == (try RecordingWriter.encode(generator.generate(scenario))), "\(scenario.fileName) is stale; run `make demo`")
        }
    }

    @Test func reportsADirectoryThatCannotBeCreated() {
        do {
            _ = try DemoRecordings.write(to: "/nonexistent-parent/demo")
            Issue.record("writing under a missing parent must throw")
        } catch {
            #expect(error.code == .io && error.path == "/nonexistent-parent/demo")
        }
    }
}

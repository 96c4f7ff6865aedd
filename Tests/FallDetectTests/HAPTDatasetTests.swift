import FallDetect
import Foundation
import Testing

@Suite struct HAPTDatasetTests {
    @Test func loadsEveryRecordingInTheBodyFrameWithItsLabels() throws {
        guard let root = SharedData.haptRoot() else { return }
        let data = try HAPTDataset(root: root)
        #expect(data.files.count == 31)
        let (labelled, problems) = try data.load(data.files[0])
        #expect(problems.isEmpty)
        #expect(labelled.labels.count == labelled.recording.samples.count)
        #expect(labelled.subject == "user01")
        let removal = try #require(labelled.removalStartNanoseconds)
        #expect(removal < labelled.recording.samples.last!.timestampNanoseconds)
        // Standing (label 5) reads about +1 g on body z once mapped.
        let standing = zip(labelled.labels, labelled.recording.samples).filter { $0.0 == 5 }.map(\.1.acceleration.z)
        let mean = standing.reduce(0, +) / Float(standing.count)
        #expect(abs(mean - 1) < 0.1)
        #expect(labelled.activity(at: removal - 3_000_000_000) != "removal")
    }

    @Test func aFolderWithoutRecordingsIsAnErrorNamingIt() throws {
        let dir = try SharedData.temporaryDirectory("hapt-empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: FallDetectError.self) { try HAPTDataset(root: dir) }
    }

    @Test func aBadLabelIsReportedWithItsLine() throws {
        let dir = try SharedData.temporaryDirectory("hapt-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rows = (0..<100).map { i in "0.99,0.01,0.02,0.0,0.0,0.0,\(i),\(i == 57 ? "x" : "5")" }
        try ("acc-x,acc-y,acc-z,gyro-x,gyro-y,gyro-z,sequence,label\n" + rows.joined(separator: "\n") + "\n")
            .write(toFile: dir + "/user01_exp0.csv", atomically: true, encoding: .utf8)
        let data = try HAPTDataset(root: dir)
        do {
            _ = try data.load(data.files[0])
            Issue.record("a non-numeric label loaded")
        } catch {
            #expect(error.line == 59)
            #expect(error.field == "label")
            #expect(error.path == data.files[0])
        }
    }

    @Test(arguments: ["1e20", "-4e4", "2.5"])
    func aLabelThatIsNoWholeInt16IsAnError(label: String) throws {
        let dir = try SharedData.temporaryDirectory("hapt-label")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "acc-x,acc-y,acc-z,gyro-x,gyro-y,gyro-z,sequence,label\n0.99,0,0,0,0,0,0,5\n0.99,0,0,0,0,0,1,\(label)\n"
            .write(toFile: dir + "/user01_exp0.csv", atomically: true, encoding: .utf8)
        let data = try HAPTDataset(root: dir)
        let error = #expect(throws: FallDetectError.self) { try data.load(data.files[0]) }
        #expect(error?.field == "label")
        #expect(error?.line == 3)
        #expect(error?.description.contains("not a whole number") == true)
    }

    @Test func loadAllGivesEveryFilesOutcomeInFileOrder() throws {
        let dir = try SharedData.temporaryDirectory("hapt-all")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (user, count, bad) in [(1, 300, nil), (2, 100, 40), (3, 2500, nil), (4, 7, nil)] as [(Int, Int, Int?)] {
            let rows = (0..<count).map { i in "0.99,0.0\(user),0.02,0.0,0.0,0.0,\(i),\(i == bad ? "x" : "\(i % 12 + 1)")" }
            try ("acc-x,acc-y,acc-z,gyro-x,gyro-y,gyro-z,sequence,label\n" + rows.joined(separator: "\n") + "\n")
                .write(toFile: dir + "/user0\(user)_exp0.csv", atomically: true, encoding: .utf8)
        }
        let data = try HAPTDataset(root: dir)
        let all = data.loadAll(workers: 3)
        #expect(all.count == 4)
        for (file, outcome) in zip(data.files, all) {
            switch (outcome, Result { () throws(FallDetectError) in try data.load(file) }) {
            case (.success(let parallel), .success(let alone)):
                #expect(parallel.recording.recording.samples == alone.recording.recording.samples)
                #expect(parallel.recording.labels == alone.recording.labels)
                #expect(parallel.recording.name == alone.recording.name)
            case (.failure(let parallel), .failure(let alone)):
                #expect(parallel == alone)
                #expect(parallel.line == 42)
            default:
                Issue.record("\(file): loadAll and load disagree")
            }
        }
        #expect(all.map { (try? $0.get())?.recording.recording.samples.count } == [300, nil, 2500, 7])
    }
}

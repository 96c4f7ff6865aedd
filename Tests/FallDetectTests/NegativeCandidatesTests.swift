import FallDetect
import Testing

@Suite struct NegativeCandidatesTests {
    /// HAPT's candidates come grouped by person, as the bagged trainer leaves people out whole.
    @Test func haptGivesEachPersonTheirOwnRows() throws {
        guard let root = SharedData.haptRoot() else { return }
        let data = try HAPTDataset(root: root)
        let recordings = try data.files.map { (path: String) throws(FallDetectError) in try data.load(path).recording }
        let negatives = try NegativeCandidates.scan(recordings)
        #expect(negatives.map(\.subject) == (1...15).map { $0 < 10 ? "user0\($0)" : "user\($0)" })
        #expect(negatives.allSatisfy { !$0.rows.isEmpty })
        // The same candidates the front end finds in each recording at its own rate.
        var settings = FallCandidateSettings()
        settings.sampleRate = 50
        let first = recordings.filter { $0.subject == "user01" }
            .reduce(0) { $0 + OnlineScan.candidates(in: $1.recording.samples, settings: settings).candidates.count }
        #expect(negatives[0].rows.count == first)
    }
}

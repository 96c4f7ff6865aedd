/// One person's fall candidates from recordings without falls (HAPT's daily life): rows the
/// learned model trains on as non-falls, beside SisFall's. They teach it what another device on
/// other people shows when nobody falls: lying down, sitting down hard, a phone taken off.
public struct NegativeCandidates: Sendable {
    /// Whose recordings: the bagged trainer leaves out whole subjects, these with them.
    public var subject: String
    public var rows: [FallFeatureVector]

    public init(subject: String, rows: [FallFeatureVector]) {
        self.subject = subject
        self.rows = rows
    }

    /// Every candidate the daemon's front end finds in `recordings`, grouped by subject (sorted);
    /// each recording at its own sample rate.
    public static func scan(_ recordings: [LabelledRecording], settings: FallCandidateSettings = FallCandidateSettings()) throws(FallDetectError)
        -> [NegativeCandidates]
    {
        var bySubject: [String: [FallFeatureVector]] = [:]
        let found = try parallelMap(recordings.count) { i throws(FallDetectError) -> [FallFeatureVector] in
            var own = settings
            own.sampleRate = Float(recordings[i].recording.info.sensor.sampleRate)
            try own.validate()
            return OnlineScan.candidates(in: recordings[i].recording.samples, settings: own).candidates.map(\.features)
        }
        for (recording, rows) in zip(recordings, found) { bySubject[recording.subject, default: []] += rows }
        return bySubject.keys.sorted().map { NegativeCandidates(subject: $0, rows: bySubject[$0]!) }
    }
}

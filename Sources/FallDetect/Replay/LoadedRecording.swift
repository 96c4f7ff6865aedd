/// A recording as read from disk, with what was wrong in the file but did not stop the reading
/// (skipped rows, corrupt blocks, a truncated tail), each naming its file and line or offset.
public struct LoadedRecording: Sendable {
    public var recording: Recording
    public var problems: [FallDetectError]
    /// Worth knowing but not wrong: a dataset's known quirks met while loading.
    public var notes: [String]

    public init(recording: Recording, problems: [FallDetectError] = [], notes: [String] = []) {
        self.recording = recording
        self.problems = problems
        self.notes = notes
    }
}

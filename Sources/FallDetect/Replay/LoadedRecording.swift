/// A recording as read from disk, with what was wrong in the file but did not stop the reading
/// (skipped rows, corrupt blocks, a truncated tail), each naming its file and line or offset.
public struct LoadedRecording: Sendable {
    public var recording: Recording
    public var problems: [FallDetectError]

    public init(recording: Recording, problems: [FallDetectError] = []) {
        self.recording = recording
        self.problems = problems
    }
}

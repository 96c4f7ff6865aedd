/// What a `SampleDetector` is told when a recording starts.
public struct SampleRecording: Sendable, Hashable {
    /// The recording's name (a SisFall trial: "F01_SA01_R01").
    public var name: String
    /// Samples per second.
    public var sampleRate: Double

    public init(name: String, sampleRate: Double) {
        self.name = name
        self.sampleRate = sampleRate
    }
}

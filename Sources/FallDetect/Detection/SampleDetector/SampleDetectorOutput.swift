/// How a detector's scored outputs become detections at a threshold θ. Either way they pass the
/// same 30 s one-per-event gate as the daemon's detectors.
public enum SampleDetectorOutput: String, Sendable, Hashable {
    /// Each output is an event the detector decided (a fall candidate, say): at θ it counts when
    /// its score is at least θ or it has none. The built-in judges work this way.
    case detections
    /// Outputs sample a decision variable over time (C8, 20 values a second): at θ a detection
    /// is each value at or above θ whose predecessor was below it (the first value counts as
    /// crossing). Every output needs a score.
    case levels
}

/// A fall detector as a benchmark sees it: IMU samples of one recording in, scored detections
/// out. The built-in detectors (`C8SampleDetector`, `JudgeSampleDetector`) and a detector in
/// another process (`ExternalDetector`) all run behind it, so `SampleDetectorRun` puts any of
/// them through the same trials, folds and report.
///
/// Per recording: `start`, then `push` every sample in time order, then `finish`. Detections may
/// come out of `push` as they happen or all at `finish` (a detector in another process answers
/// when the recording ends); only their timestamps and scores count, not when they were handed
/// over. How a score turns into detections at a threshold is `output`; which thresholds the
/// bench tries is `threshold`.
public protocol SampleDetector {
    /// Short name for tables and JSON.
    var name: String { get }
    var output: SampleDetectorOutput { get }
    var threshold: DetectorThreshold { get }

    /// Forgets everything of the previous recording and prepares for `recording`.
    mutating func start(_ recording: SampleRecording) throws(FallDetectError)
    /// Adds one body-frame sample; appends any detections it completed.
    mutating func push(_ sample: IMUSample, into detections: inout [SampleDetection]) throws(FallDetectError)
    /// The recording ended: appends the detections still owed.
    mutating func finish(into detections: inout [SampleDetection]) throws(FallDetectError)
}

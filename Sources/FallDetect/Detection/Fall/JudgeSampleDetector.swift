/// A built-in fall judge as a `SampleDetector`: the daemon's front end (AHRS fusion, motion
/// frames, the candidate tracker) finds candidates, and each comes out at its decision time
/// scored by the judge, at the judge's own threshold. The same candidates and scores as
/// `OnlineScan` and `OnlineProtocol.scores` give, so the online protocol's figures match
/// (without the stillness and recovery stages, which the bench adds on top).
public struct JudgeSampleDetector<Judge: FallJudge>: SampleDetector {
    public let judge: Judge
    public let settings: FallCandidateSettings
    /// The accelerometer's range in g, for saturation (SisFall's ADXL345: 16).
    public let accelerometerRange: Float
    public var name: String { judge.name }
    public var output: SampleDetectorOutput { .detections }
    public var threshold: DetectorThreshold { .fixed(judge.threshold) }

    var frames: MotionFrameBuilder
    var tracker: FallCandidateTracker

    public init(judge: Judge, settings: FallCandidateSettings = FallCandidateSettings(), accelerometerRange: Float = 16) throws(FallDetectError) {
        self.judge = judge
        self.settings = settings
        self.accelerometerRange = accelerometerRange
        frames = MotionFrameBuilder(sampleRate: settings.sampleRate, accelerometerRange: accelerometerRange)
        tracker = try FallCandidateTracker(settings: settings)
    }

    public mutating func start(_ recording: SampleRecording) throws(FallDetectError) {
        var settings = settings
        settings.sampleRate = Float(recording.sampleRate)
        frames = MotionFrameBuilder(sampleRate: settings.sampleRate, accelerometerRange: accelerometerRange)
        tracker = try FallCandidateTracker(settings: settings)
    }

    public mutating func push(_ sample: IMUSample, into detections: inout [SampleDetection]) throws(FallDetectError) {
        if let c = tracker.push(frames.push(sample)) {
            detections.append(SampleDetection(timestampNanoseconds: c.decisionNanoseconds, score: judge.score(c)))
        }
    }

    public mutating func finish(into detections: inout [SampleDetection]) throws(FallDetectError) {}
}

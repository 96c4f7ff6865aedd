/// The paper's C8 as a `SampleDetector`: the feature's value 20 times a second (each at the
/// timestamp of the sample its window ends with) as levels, on `OnlineBaseline.thresholds`. The
/// same series `OnlineScan` keeps as `OnlineTrial.baseline`, so the online protocol gives the
/// same figures either way.
///
/// A class: the feature stream it owns is noncopyable, and a protocol value must be copyable.
public final class C8SampleDetector: SampleDetector {
    public let name = OnlineBaseline.name
    public let output = SampleDetectorOutput.levels
    public let threshold = DetectorThreshold.fitted(grid: OnlineBaseline.thresholds)

    var stream: SisFallFeatureStream
    var index = 0
    var stride = 1

    public init() throws(FallDetectError) {
        stream = try SisFallFeatureStream(.c8)
    }

    public func start(_ recording: SampleRecording) throws(FallDetectError) {
        stream = try SisFallFeatureStream(.c8, parameters: SisFallFeatureParameters(sampleRateHertz: recording.sampleRate))
        stride = max(1, Int(Float(recording.sampleRate)) / OnlineScan.baselineRate)
        index = 0
    }

    public func push(_ sample: IMUSample, into detections: inout [SampleDetection]) throws(FallDetectError) {
        defer { index += 1 }
        if let v = stream.push(sample.acceleration), index % stride == 0 {
            detections.append(SampleDetection(timestampNanoseconds: sample.timestampNanoseconds, score: v))
        }
    }

    public func finish(into detections: inout [SampleDetection]) throws(FallDetectError) {}
}

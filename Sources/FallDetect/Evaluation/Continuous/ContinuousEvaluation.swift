import Foundation
import Synchronization

/// Runs a detection profile over continuous labelled recordings exactly as `detectord run` runs
/// it on a device (`DetectionPipeline`: fusion, every detector of the profile, the gate), and
/// places each detection against the labels: a fall found, a false alarm, or a detection at the
/// device's removal. Recordings run in parallel, one per core.
public enum ContinuousEvaluation {
    public static func evaluate(
        _ recordings: [LabelledRecording], profile: DetectionProfile, fallModel: FallModelFile? = nil, tolerance: Double = OnlineProtocol.defaultTolerance,
        workers: Int? = nil
    ) throws(FallDetectError) -> ContinuousResult {
        let outcomes = Mutex<[Int: Result<([ContinuousDetection], Int, Int), FallDetectError>]>([:])
        let next = Atomic<Int>(0)
        let threads = min(recordings.count, max(1, workers ?? SisFallDataset.processorCount))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < recordings.count else { return }
                let outcome = Result { () throws(FallDetectError) in
                    try run(recordings[i], profile: profile, fallModel: fallModel, tolerance: tolerance)
                }
                outcomes.withLock { $0[i] = outcome }
            }
        }
        var result = ContinuousResult(detector: profile.fall?.rawValue ?? "none", profile: profile.name)
        let collected = outcomes.withLock { $0 }
        for (i, recording) in recordings.enumerated() {
            guard let outcome = collected[i] else { continue }
            let (detections, falls, found) = try outcome.get()
            result.recordings += 1
            result.activityHours += recording.activitySeconds / 3600
            if recording.removalStartNanoseconds != nil {
                result.removals += 1
                result.removalSeconds += recording.removalSeconds
            }
            result.falls += falls
            result.fallsDetected += found
            result.detections += detections
        }
        return result
    }

    /// One recording: its detections, its labelled falls and how many of them were found.
    static func run(
        _ labelled: LabelledRecording, profile: DetectionProfile, fallModel: FallModelFile?, tolerance: Double
    ) throws(FallDetectError) -> ([ContinuousDetection], Int, Int) {
        let sensor = labelled.recording.info.sensor
        let range = sensor.accelerometerRange.isFinite ? sensor.accelerometerRange : 16
        var pipeline = try DetectionPipeline(profile: profile, sampleRate: Float(sensor.sampleRate), accelerometerRange: range, fallModel: fallModel)
        let origin = labelled.recording.samples.first?.timestampNanoseconds ?? 0
        var detections: [ContinuousDetection] = []
        var found = Set<Int>()
        for sample in labelled.recording.samples {
            for event in pipeline.push(sample) {
                let t = event.timestampNanoseconds
                let place: ContinuousDetection.Place
                var activity: String
                if let fall = labelled.fallSpans.firstIndex(where: { t >= $0.lowerBound && t <= $0.upperBound + Int64(tolerance * 1e9) }) {
                    place = .fall
                    activity = "fall"
                    found.insert(fall)
                } else if let removal = labelled.removalStartNanoseconds, t >= removal {
                    place = .removal
                    activity = "removal"
                } else {
                    place = .activity
                    activity = labelled.activity(at: t)
                }
                detections.append(
                    ContinuousDetection(
                        recording: labelled.name, subject: labelled.subject, seconds: Double(t - origin) / 1e9, kind: event.kind,
                        detector: event.detector, place: place, activity: activity))
            }
        }
        return (detections, labelled.fallSpans.count, found.count)
    }
}

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
        let outcomes = try outcomes(recordings, profile: profile, fallModel: fallModel, tolerance: tolerance, workers: workers)
        var result = ContinuousResult(detector: profile.fall?.rawValue ?? "none", profile: profile.name)
        for (recording, one) in zip(recordings, outcomes) {
            result.recordings += 1
            result.activityHours += recording.activitySeconds / 3600
            if recording.removalStartNanoseconds != nil {
                result.removals += 1
                result.removalSeconds += recording.removalSeconds
            }
            result.falls += one.falls
            result.fallsDetected += one.found
            result.detections += one.detections
            result.notWorn += one.notWorn
        }
        return result
    }

    /// Every recording's outcome, in their order; the first error met in that order is thrown.
    static func outcomes(
        _ recordings: [LabelledRecording], profile: DetectionProfile, fallModel: FallModelFile?, tolerance: Double, workers: Int?
    ) throws(FallDetectError) -> [Outcome] {
        let collected = ConcurrentIndices.map(count: recordings.count, workers: workers) { i in
            Result { () throws(FallDetectError) in try run(recordings[i], profile: profile, fallModel: fallModel, tolerance: tolerance) }
        }
        var ordered: [Outcome] = []
        ordered.reserveCapacity(recordings.count)
        for outcome in collected { ordered.append(try outcome.get()) }
        return ordered
    }

    /// One recording: its detections, its labelled falls, how many of them were found, and when
    /// the device was said to be off.
    struct Outcome: Sendable {
        var detections: [ContinuousDetection]
        var falls: Int
        var found: Int
        var notWorn: [NotWornReport]
    }

    static func run(
        _ labelled: LabelledRecording, profile: DetectionProfile, fallModel: FallModelFile?, tolerance: Double
    ) throws(FallDetectError) -> Outcome {
        let sensor = labelled.recording.info.sensor
        var pipeline = try DetectionPipeline(
            profile: profile, sampleRate: Float(sensor.sampleRate), accelerometerRange: sensor.accelerometerRange,
            gyroscopeRange: sensor.gyroscopeRange, fallModel: fallModel)
        if labelled.estimatesMounting { pipeline.mounting = try MountingEstimator(sampleRate: Float(sensor.sampleRate)) }
        let origin = labelled.recording.samples.first?.timestampNanoseconds ?? 0
        var detections: [ContinuousDetection] = []
        var found = Set<Int>()
        var notWorn: [NotWornReport] = []
        for sample in labelled.recording.samples {
            let events = pipeline.push(sample)
            for change in pipeline.takeWearChanges() where !change.isWorn {
                notWorn.append(
                    NotWornReport(
                        recording: labelled.name, seconds: Double(change.timestampNanoseconds - origin) / 1e9,
                        sinceSeconds: Double(change.sinceNanoseconds - origin) / 1e9,
                        duringRemoval: labelled.removalStartNanoseconds.map { change.sinceNanoseconds >= $0 - Int64(LabelledRecording.removalMargin * 1e9) } ?? false))
            }
            for event in events {
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
        return Outcome(detections: detections, falls: labelled.fallSpans.count, found: found.count, notWorn: notWorn)
    }
}

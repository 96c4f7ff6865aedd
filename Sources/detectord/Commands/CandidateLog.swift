import FallDetect
import Foundation

/// `replay --candidates FILE`: every impact the fall candidate tracker measured, with what the
/// judges read and what they scored, one JSON line each. The way to see why a detector fired or
/// stayed quiet on a recording, and the rows a researcher needs to study the judges offline.
final class CandidateLog {
    private let handle: FileHandle
    private let path: String
    private let learned: LearnedFallJudge
    private let multiphase: MultiphaseFallJudge

    init(path: String) throws(FallDetectError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw FallDetectError(.io, "cannot create the candidate log", path: path)
        }
        self.handle = handle
        self.path = path
        var unbounded = try LearnedFallJudge.shipped()
        unbounded.bounds = .off
        learned = unbounded
        multiphase = try MultiphaseFallJudge()
    }

    deinit { try? handle.close() }

    /// Runs the front end over `recording` as `profile` sets it and appends its candidates.
    func write(_ recording: Recording, profile: DetectionProfile) throws(FallDetectError) {
        var settings = profile.candidates
        settings.sampleRate = Float(recording.info.sensor.sampleRate)
        try settings.validate()
        var learned = learned
        learned.threshold = profile.learnedThreshold
        let origin = recording.samples.first?.timestampNanoseconds ?? 0
        var text = ""
        for c in OnlineScan.candidates(in: recording.samples, settings: settings).candidates {
            var fields: [(String, JSONLine.Value)] = [
                ("recording", .string(recording.info.title)), ("t", .number(Double(c.decisionNanoseconds - origin) / 1e9)),
                ("impact_t", .number(Double(c.impactNanoseconds - origin) / 1e9)),
            ]
            for (name, value) in zip(FallCandidate.measurementKeys, c.measurementValues) { fields.append((name, .number(Double(value)))) }
            let violation = PhysicalFallBounds.standard.violation(c)
            fields += [
                ("bounds", .string(violation?.rawValue ?? "admitted")),
                ("learned_unbounded", .number(Double(learned.score(c)))), ("learned_fires", .bool(learned.score(c) >= learned.threshold && violation == nil)),
                ("multiphase", .number(Double(multiphase.score(c)))), ("multiphase_fires", .bool(multiphase.score(c) >= multiphase.threshold))
            ]
            text += JSONLine.make(fields) + "\n"
        }
        do { try handle.write(contentsOf: Data(text.utf8)) } catch {
            throw FallDetectError(.io, "cannot write the candidate log: \(error)", path: path)
        }
    }
}

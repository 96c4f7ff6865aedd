import FallDetect
import Synchronization

/// The profile and sensitivity the detector runs, and the switch to another chosen on the page:
/// a new pipeline is built here (off the detector's thread) and handed to the loop, which takes
/// it up before its next batch.
final class DetectorSwitch: Sendable {
    private let make: @Sendable (DetectionProfile) throws -> DetectionPipeline
    private let loop = Mutex<DetectorLoop?>(nil)
    private let running: Mutex<(profile: String, sensitivity: String)>
    private let onChange: @Sendable (String) -> Void

    init(profile: String, sensitivity: String, onChange: @escaping @Sendable (String) -> Void = { _ in },
         make: @escaping @Sendable (DetectionProfile) throws -> DetectionPipeline) {
        running = Mutex((profile, sensitivity))
        self.make = make
        self.onChange = onChange
    }

    func attach(_ detector: DetectorLoop) { loop.withLock { $0 = detector } }

    func current() -> (profile: String, sensitivity: String) { running.withLock { $0 } }

    /// The workflow is watching again: the running detector's refractory period ends.
    func rearm() { loop.withLock { $0 }?.rearm() }

    /// Builds the chosen profile's pipeline without running it, so that a choice that cannot run
    /// on this sensor is refused before it is saved: saved, it would fail the next start.
    func prepare(_ choice: DetectorChoice) throws(FallDetectError) -> DetectionPipeline {
        guard let profile = choice.detectionProfile else {
            throw FallDetectError(.invalidArgument, "no profile \(choice.profile) at sensitivity \(choice.sensitivity)", field: "profile")
        }
        do {
            return try make(profile)
        } catch {
            let reason = (error as? FallDetectError)?.message ?? "\(error)"
            throw FallDetectError(.invalidArgument, "the \(choice.profile) profile cannot run on this sensor: \(reason)", field: "profile")
        }
    }

    /// Runs `pipeline`, which `prepare(choice)` built, from the detector's next batch.
    func install(_ pipeline: DetectionPipeline, as choice: DetectorChoice) {
        loop.withLock { $0 }?.replace(pipeline: pipeline)
        running.withLock { $0 = (choice.profile, choice.sensitivity) }
        onChange(choice.profile)
    }
}

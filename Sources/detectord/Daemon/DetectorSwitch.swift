import FallDetect
import Synchronization

/// The profile and sensitivity the detector runs, and the switch to another chosen on the page
/// or to the rate the chip really runs at: a new pipeline is built here (off the detector's
/// thread) and handed to the loop, which takes it up before its next batch.
final class DetectorSwitch: Sendable {
    struct Running: Sendable {
        var profile: DetectionProfile
        var sensitivity: String
        /// The sample rate the running pipeline was built for.
        var rateHz: Double
    }

    private let make: @Sendable (DetectionProfile, Double) throws -> DetectionPipeline
    private let loop = Mutex<DetectorLoop?>(nil)
    private let running: Mutex<Running>
    private let onChange: @Sendable (String) -> Void

    init(profile: DetectionProfile, sensitivity: String, rateHz: Double, onChange: @escaping @Sendable (String) -> Void = { _ in },
         make: @escaping @Sendable (DetectionProfile, Double) throws -> DetectionPipeline) {
        running = Mutex(Running(profile: profile, sensitivity: sensitivity, rateHz: rateHz))
        self.make = make
        self.onChange = onChange
    }

    func attach(_ detector: DetectorLoop) { loop.withLock { $0 = detector } }

    func current() -> (profile: String, sensitivity: String) { running.withLock { ($0.profile.name, $0.sensitivity) } }

    /// The sample rate the running pipeline was built for.
    var rateHz: Double { running.withLock { $0.rateHz } }

    /// The workflow is watching again: the running detector's refractory period ends.
    func rearm() { loop.withLock { $0 }?.rearm() }

    /// Builds the chosen profile's pipeline without running it, so that a choice that cannot run
    /// on this sensor is refused before it is saved: saved, it would fail the next start.
    func prepare(_ choice: DetectorChoice) throws(FallDetectError) -> DetectionPipeline {
        guard let profile = choice.detectionProfile else {
            throw FallDetectError(.invalidArgument, "no profile \(choice.profile) at sensitivity \(choice.sensitivity)", field: "profile")
        }
        do {
            return try make(profile, rateHz)
        } catch {
            let reason = (error as? FallDetectError)?.message ?? "\(error)"
            throw FallDetectError(.invalidArgument, "the \(choice.profile) profile cannot run on this sensor: \(reason)", field: "profile")
        }
    }

    /// Runs `pipeline`, which `prepare(choice)` built, from the detector's next batch.
    func install(_ pipeline: DetectionPipeline, as choice: DetectorChoice) {
        loop.withLock { $0 }?.replace(pipeline: pipeline)
        running.withLock { r in
            if let profile = choice.detectionProfile { r.profile = profile }
            r.sensitivity = choice.sensitivity
        }
        onChange(choice.profile)
    }

    /// The chip runs at `rateHz`, not at the rate asked for (an LSM6 has 104 Hz where 100 was
    /// asked, an ICM-20948 225 Hz for 200): the pipeline's windows and filters, counted in
    /// samples, are built again for it. Within 0.5 % nothing changes. Throws, keeping the running
    /// pipeline, when the profile cannot run at that rate.
    func follow(rateHz: Double) throws(FallDetectError) {
        let now = running.withLock { $0 }
        guard abs(rateHz - now.rateHz) > 0.005 * now.rateHz else { return }
        let pipeline: DetectionPipeline
        do {
            pipeline = try make(now.profile, rateHz)
        } catch {
            let reason = (error as? FallDetectError)?.message ?? "\(error)"
            throw FallDetectError(.invalidArgument, "the \(now.profile.name) profile cannot run at \(rateHz) Hz: \(reason)", field: "sensor.rate_hz")
        }
        loop.withLock { $0 }?.replace(pipeline: pipeline)
        running.withLock { $0.rateHz = rateHz }
    }
}

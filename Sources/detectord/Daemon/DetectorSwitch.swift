import FallDetect
import Synchronization

/// The profile and sensitivity the detector runs, and the switch to another chosen on the page
/// or to the rate and ranges the chip really runs at: a new pipeline is built here (off the
/// detector's thread) and handed to the loop, which takes it up before its next batch.
final class DetectorSwitch: Sendable {
    struct Running: Sendable {
        var profile: DetectionProfile
        var sensitivity: String
        /// What the running pipeline was built for.
        var scale: SensorScale
    }

    private let make: @Sendable (DetectionProfile, SensorScale) throws -> DetectionPipeline
    private let loop = Mutex<DetectorLoop?>(nil)
    /// Held across a change (build, hand-over, record), so that a profile chosen on the page and
    /// the chip's rate arriving at once cannot leave one built for the other's old values.
    private let running: Mutex<Running>
    private let onChange: @Sendable (String) -> Void

    init(profile: DetectionProfile, sensitivity: String, scale: SensorScale, onChange: @escaping @Sendable (String) -> Void = { _ in },
         make: @escaping @Sendable (DetectionProfile, SensorScale) throws -> DetectionPipeline) {
        running = Mutex(Running(profile: profile, sensitivity: sensitivity, scale: scale))
        self.make = make
        self.onChange = onChange
    }

    func attach(_ detector: DetectorLoop) { loop.withLock { $0 = detector } }

    func current() -> (profile: String, sensitivity: String) { running.withLock { ($0.profile.name, $0.sensitivity) } }

    /// What the running pipeline was built for.
    var scale: SensorScale { running.withLock { $0.scale } }

    /// The workflow is watching again: the running detector's refractory period ends.
    func rearm() { loop.withLock { $0 }?.rearm() }

    /// A pipeline built for a choice, and what it was built for.
    struct Prepared: Sendable {
        let pipeline: DetectionPipeline
        let scale: SensorScale
    }

    /// Builds the chosen profile's pipeline without running it, so that a choice that cannot run
    /// on this sensor is refused before it is saved: saved, it would fail the next start.
    func prepare(_ choice: DetectorChoice) throws(FallDetectError) -> Prepared {
        let scale = scale
        return Prepared(pipeline: try build(choice, for: scale), scale: scale)
    }

    /// Runs the pipeline `prepare(choice)` built from the detector's next batch; built again if
    /// the chip's rate or ranges changed in between.
    func install(_ prepared: Prepared, as choice: DetectorChoice) throws(FallDetectError) {
        try running.withLock { (r: inout Running) throws(FallDetectError) in
            let pipeline = prepared.scale == r.scale ? prepared.pipeline : try build(choice, for: r.scale)
            loop.withLock { $0 }?.replace(pipeline: pipeline)
            if let profile = choice.detectionProfile { r.profile = profile }
            r.sensitivity = choice.sensitivity
        }
        onChange(choice.profile)
    }

    /// The chip runs at another rate or range than the one asked for (an LSM6 has 104 Hz where
    /// 100 was asked, an ICM-20948 225 Hz for 200; an MPU asked for ±300 °/s is at ±500): the
    /// running profile's pipeline is built again for it. Throws, keeping the running pipeline,
    /// when the profile cannot run at that rate.
    func follow(_ chip: SensorScale) throws(FallDetectError) {
        try running.withLock { (r: inout Running) throws(FallDetectError) in
            guard chip.differs(from: r.scale) else { return }
            let pipeline: DetectionPipeline
            do {
                pipeline = try make(r.profile, chip)
            } catch {
                let reason = (error as? FallDetectError)?.message ?? "\(error)"
                throw FallDetectError(.invalidArgument, "the \(r.profile.name) profile cannot run at \(chip.rateHz) Hz: \(reason)", field: "sensor.rate_hz")
            }
            loop.withLock { $0 }?.replace(pipeline: pipeline)
            r.scale = chip
        }
    }

    private func build(_ choice: DetectorChoice, for scale: SensorScale) throws(FallDetectError) -> DetectionPipeline {
        guard let profile = choice.detectionProfile else {
            throw FallDetectError(.invalidArgument, "no profile \(choice.profile) at sensitivity \(choice.sensitivity)", field: "profile")
        }
        do {
            return try make(profile, scale)
        } catch {
            let reason = (error as? FallDetectError)?.message ?? "\(error)"
            throw FallDetectError(.invalidArgument, "the \(choice.profile) profile cannot run on this sensor: \(reason)", field: "profile")
        }
    }
}

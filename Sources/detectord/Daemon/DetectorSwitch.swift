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

    /// Builds the chosen profile's pipeline and hands it over; false if it cannot be built (the
    /// old one then keeps running).
    @discardableResult
    func apply(_ choice: DetectorChoice) -> Bool {
        guard let profile = choice.detectionProfile, let pipeline = try? make(profile) else { return false }
        loop.withLock { $0 }?.replace(pipeline: pipeline)
        running.withLock { $0 = (choice.profile, choice.sensitivity) }
        onChange(choice.profile)
        return true
    }
}

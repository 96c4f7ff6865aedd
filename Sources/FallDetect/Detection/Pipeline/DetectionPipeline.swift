/// Everything between the IMU and the workflow for one profile: motion frames (AHRS fusion,
/// vertical velocity, saturation), then every detector the profile enables, then the stages
/// after a fall detection (stillness confirmation, recovery check) that it asks for. Push samples
/// and fixes in time order; detections come back as they happen, the stages' outcomes from
/// `takeFollowUps()`. No allocation per sample.
public struct DetectionPipeline: Sendable {
    public let profile: DetectionProfile
    var frames: MotionFrameBuilder
    /// Set for a device in an unknown orientation: samples come in the sensor frame and the
    /// estimator turns them into the body frame (`AxisChoice.auto`). nil: they are body-frame.
    public var mounting: MountingEstimator?
    var fall: FallDetector?
    var freeFall: FreeFallDetector?
    var crash: CrashDetector?
    var followUp: FallFollowUp
    var followUps: [FollowUpOutcome] = []
    var wear: WearMonitor
    var wearChanges: [WearChange] = []
    /// When the fall or free-fall detector last fired.
    var lastFallNanoseconds: Int64?

    /// Throws `.invalidArgument` naming the bad parameter of the profile. `fallModel` is the
    /// learned judge's model (nil: the shipped one, `FallModelFile.shipped()`); either way the
    /// profile's `learnedThreshold` is the operating point, as its sensitivity preset sets it.
    /// The ranges are the sensor's full scale (g, °/s); one that is not a positive number (a CSV
    /// says none) is taken as 16 g and 2000 °/s, what most body-worn IMUs are set to.
    public init(
        profile: DetectionProfile, sampleRate: Float, accelerometerRange: Float = 16, gyroscopeRange: Float = 2000,
        fallModel: FallModelFile? = nil
    ) throws(FallDetectError) {
        self.profile = profile
        frames = MotionFrameBuilder(
            sampleRate: sampleRate, accelerometerRange: accelerometerRange.isFinite && accelerometerRange > 0 ? accelerometerRange : 16,
            gyroscopeRange: gyroscopeRange.isFinite && gyroscopeRange > 0 ? gyroscopeRange : 2000)
        var candidates = profile.candidates
        candidates.sampleRate = sampleRate
        let gate = DetectionGate(refractorySeconds: profile.refractorySeconds)
        switch profile.fall {
        case .learned?:
            // Not `??`: its autoclosure would turn the typed error into `any Error`.
            let model: FallModelFile
            if let fallModel { model = fallModel } else { model = try FallModelFile.shipped() }
            var judge = try LearnedFallJudge(modelFile: model)
            judge.threshold = profile.learnedThreshold
            try profile.fallBounds.validate()
            judge.bounds = profile.fallBounds
            fall = try FallDetector(judge: judge, candidates: candidates, gate: gate)
        case .multiphase?:
            fall = try FallDetector(judge: MultiphaseFallJudge(parameters: profile.multiphase), candidates: candidates, gate: gate)
        case nil:
            fall = nil
        }
        freeFall = try profile.freeFall.map { (p: FreeFallParameters) throws(FallDetectError) in try FreeFallDetector(parameters: p) }
        crash = try profile.crash.map { (p: CrashDetectorParameters) throws(FallDetectError) in try CrashDetector(parameters: p) }
        followUp = try FallFollowUp(confirmation: profile.confirmation, recovery: profile.recovery)
        wear = try WearMonitor(parameters: profile.wear, sampleRate: Double(sampleRate))
    }

    /// Takes over what `running`, the pipeline this one replaces (a profile switched on the page),
    /// learned of how the device is worn: its mounting estimate, which holds for any profile (with
    /// `auto` axes nothing is judged until there is one), and whether it is on a body, when both
    /// judge that alike (a device lying off would otherwise count as worn again, and its return
    /// would go unnoticed). A mapping given in the configuration stays as given. The estimate goes
    /// on at this pipeline's rate (built again for the rate the chip really runs at).
    public mutating func takeOver(from running: DetectionPipeline) {
        if let rate = mounting?.sampleRate, var learned = running.mounting, learned.isEstimated, (try? learned.retime(to: rate)) != nil {
            mounting = learned
        }
        if wear.parameters == running.wear.parameters {
            if wear.sampleRate == running.wear.sampleRate { wear = running.wear } else { wear.continueFrom(running.wear) }
        }
        // A device lying off holds steady stretches back here too (`MountingEstimator.deviceOff`).
        if !wear.isWorn { mounting?.deviceOff(true) }
    }

    /// The alert the last detection started was answered ("I'm fine", protection resumed): the
    /// next fall is a new event, not one the refractory period holds back. Someone who cancels
    /// and falls again trying to get up must not wait out the rest of the 30 s. The crash
    /// detector's late view of the same impact is still known as that fall (`repeatsFall`).
    public mutating func rearm() {
        fall?.gate.reset()
    }

    /// Whether the device is on a body (`WearMonitor`); it never withdraws a detection.
    public var isWorn: Bool { wear.isWorn }

    /// The device's removals and returns since the last call, in time order.
    public mutating func takeWearChanges() -> [WearChange] {
        if wearChanges.isEmpty { return [] }
        defer { wearChanges = [] }
        return wearChanges
    }

    /// Times the gyroscope reported turns no body makes and the attitude followed the
    /// accelerometer instead (`GyroscopeGuard`): a sign of a faulty or loosely mounted sensor.
    public var suspectGyroscopeEpisodes: Int { frames.suspectGyroscopeEpisodes }

    /// Adds one IMU sample; returns the detections it completed (usually none).
    public mutating func push(_ sample: IMUSample) -> [DetectionEvent] {
        // A non-finite axis (a corrupt recording) would turn the attitude into NaN for good and
        // every later fall into "no posture change": the sample is dropped, as a lost one is.
        let a = sample.acceleration, w = sample.angularRate
        guard all(a - a .== .zero), all(w - w .== .zero) else { return [] }
        let frame = mounting == nil ? frames.push(sample) : frames.push(sample, mounting: &mounting!)
        // The wear monitor reads the sensor as it is: its wander does not depend on the frame.
        if let change = wear.push(sample) {
            wearChanges.append(change)
            mounting?.deviceOff(!change.isWorn)
        }
        if mounting?.isEstimated == false { return [] }  // no body frame yet: no posture to judge
        let known = followUps.count
        followUp.push(frame, into: &followUps)
        // A wearer who got up again can fall again: the next fall is a new event, as the bench
        // counts it, not one the gate holds back.
        if followUps.count > known, followUps[known...].contains(where: { $0.kind == .recovered }) { fall?.gate.reset() }
        var events: [DetectionEvent] = []
        if let e = freeFall?.push(frame) { events.append(e) }
        if let e = fall?.push(frame) { events.append(e) }
        for e in events {
            lastFallNanoseconds = e.timestampNanoseconds
            followUp.start(e)
        }
        if let e = crash?.push(frame), !repeatsFall(e) { events.append(e) }
        return events
    }

    /// Adds one GNSS fix; returns a crash confirmed by it, if any.
    public mutating func push(fix: GNSSFix) -> [DetectionEvent] {
        guard let e = crash?.push(fix: fix), !repeatsFall(e) else { return [] }
        return [e]
    }

    /// Without a speed, the crash detector's fallback (impact, posture change, stillness) sees
    /// the fall the fall detector already reported: one event, not two.
    func repeatsFall(_ crash: DetectionEvent) -> Bool {
        guard crash.evidence.speedBefore == nil, let last = lastFallNanoseconds else { return false }
        return Double(crash.timestampNanoseconds - last) < profile.refractorySeconds * 1e9
    }

    /// What the stages after a fall detection concluded since the last call, in time order.
    public mutating func takeFollowUps() -> [FollowUpOutcome] {
        if followUps.isEmpty { return [] }
        defer { followUps = [] }
        return followUps
    }

    /// Names of the detectors this pipeline runs.
    public var detectorNames: [String] {
        var names: [String] = []
        if let fall { names.append(fall.name) }
        if freeFall != nil { names.append(FreeFallDetector.name) }
        if crash != nil { names.append(CrashDetector.name) }
        return names
    }
}

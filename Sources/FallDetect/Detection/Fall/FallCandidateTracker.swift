#if canImport(Glibc)
import Glibc
#endif

/// Finds impacts in a stream of frames and measures the fall model's phases around each: the
/// calm or busy seconds before, the falling phase (weightlessness, downward velocity), the impact,
/// and the posture after it. One candidate comes out when the posture window closes, so its
/// latency from the impact is `decisionDelay`. Causal, O(1) per sample except at a candidate
/// (O(seconds of history) once), and allocation-free after `init`.
public struct FallCandidateTracker: Sendable {
    public let settings: FallCandidateSettings
    var history: MotionHistory
    /// Index of the next sample.
    var index = 0
    /// The impact being followed: its sample index, |a|, timestamp; nil when idle.
    var peak: (index: Int, magnitude: Float, timestamp: Int64)?
    var saturatedDuringImpact = false
    let postureDelaySamples: Int
    let decisionDelaySamples: Int

    public init(settings: FallCandidateSettings = FallCandidateSettings()) throws(FallDetectError) {
        try settings.validate()
        self.settings = settings
        postureDelaySamples = settings.samples(settings.postureDelay)
        decisionDelaySamples = settings.samples(settings.decisionDelay)
        let lookBack = settings.samples(FallCandidateSettings.activitySpan.start)
        history = MotionHistory(capacity: lookBack + 2 * decisionDelaySamples + 2)
    }

    /// Adds a frame; returns a candidate when the posture window of an impact closes.
    public mutating func push(_ frame: MotionFrame) -> FallCandidate? {
        history.push(frame)
        defer { index += 1 }
        let m = frame.accelerationMagnitude
        if var current = peak {
            // A larger peak before the decision is the real impact (a body often hits twice:
            // knees, then hip; a stumble's step, then the ground): follow it from there.
            if m > current.magnitude {
                current = (index, m, frame.timestampNanoseconds)
                saturatedDuringImpact = frame.saturated
            } else if frame.saturated, index - current.index <= postureDelaySamples {
                saturatedDuringImpact = true
            }
            peak = current
            guard index - current.index >= decisionDelaySamples else { return nil }
            let candidate = measure(peakIndex: current.index, magnitude: current.magnitude, timestamp: current.timestamp, now: frame.timestampNanoseconds)
            peak = nil
            saturatedDuringImpact = false
            if candidate.isTurnWhileLying(lyingTilt: settings.lyingTilt, dropVelocity: settings.lyingDropVelocity) { return nil }
            return candidate
        }
        if m >= settings.impactThreshold {
            peak = (index, m, frame.timestampNanoseconds)
            saturatedDuringImpact = frame.saturated
        }
        return nil
    }

    /// Forgets everything (a new recording or a restart).
    public mutating func reset() {
        self = (try? FallCandidateTracker(settings: settings)) ?? self
    }

    func measure(peakIndex p: Int, magnitude: Float, timestamp: Int64, now: Int64) -> FallCandidate {
        let s = settings
        let before = history.summary((p - s.samples(FallCandidateSettings.postureBefore.start))..<(p - s.samples(FallCandidateSettings.postureBefore.end)))
        let falling = history.summary((p - s.samples(FallCandidateSettings.fallingSpan))..<(p + 1))
        let after = history.summary((p + postureDelaySamples)..<(index + 1))
        let activity = history.summary((p - s.samples(FallCandidateSettings.activitySpan.start))..<(p - s.samples(FallCandidateSettings.activitySpan.end)))
        let rotation = history.summary((p - s.samples(FallCandidateSettings.fallingSpan))..<(p + postureDelaySamples))
        // Only tilt after the AHRS settled counts; an impact in the first seconds has none.
        let lyingEnd = p - s.samples(FallCandidateSettings.lyingSpan.end)
        let lyingStart = max(p - s.samples(FallCandidateSettings.lyingSpan.start), s.samples(FallCandidateSettings.settlingSeconds))
        let lying = lyingStart < lyingEnd ? history.summary(lyingStart..<lyingEnd) : nil
        // The falling phase is the weightless stretch nearest before the impact: its first
        // sample. Without one, the moment |a| was smallest in the second before the impact.
        let earliest = max(p - s.samples(FallCandidateSettings.fallingSpan), history.count - history.capacity, 0)
        var low = 0
        var minimum: (index: Int, magnitude: Float) = (p, .infinity)
        var stretchStart: Int?
        var stretchClosed = false
        var i = p - 1
        while i >= earliest, let e = history.entry(i) {
            if e.magnitude < s.freeFallThreshold {
                low += 1
                if !stretchClosed { stretchStart = i }
            } else if stretchStart != nil {
                stretchClosed = true
            }
            if e.magnitude < minimum.magnitude { minimum = (i, e.magnitude) }
            i -= 1
        }
        let start = stretchStart ?? minimum.index
        let fallingTimestamp = timestamp - Int64((Double(p - start) / Double(s.sampleRate) * 1e9).rounded())
        let period = 1 / s.sampleRate
        var attitudeChange: Float = 0
        if let up0 = before?.meanGravity, let up1 = after?.meanGravity {
            let n0 = (up0 * up0).sum().squareRoot(), n1 = (up1 * up1).sum().squareRoot()
            if n0 > 0, n1 > 0 { attitudeChange = acos(max(-1, min(1, (up0 * up1).sum() / (n0 * n1)))) * 180 / .pi }
        }
        // Before a recording's second second, the posture before is unknown: take the earliest.
        let tiltBefore = before?.meanTilt ?? history.entry(max(0, history.count - history.capacity))?.tilt ?? 0
        return FallCandidate(
            peakAcceleration: magnitude, saturated: saturatedDuringImpact,
            minimumAccelerationBefore: falling?.minimumMagnitude ?? magnitude,
            lowAccelerationSeconds: Float(low) * period, tiltBefore: tiltBefore, tiltAfter: after?.meanTilt ?? 0,
            maximumTiltAfter: after?.maximumTilt ?? 0, tiltAtDecision: history.entry(index)?.tilt ?? 0,
            minimumVerticalVelocity: falling?.minimumVerticalVelocity ?? 0, peakAngularRate: rotation?.maximumAngularRate ?? 0,
            motionAfter: after?.magnitudeDeviation ?? 0, activityBefore: activity?.meanAbsoluteDeviation ?? 0,
            attitudeChange: attitudeChange, peakAngularRateAfter: after?.maximumAngularRate ?? 0, minimumTiltBefore: lying?.minimumTilt ?? 0,
            fallingStartNanoseconds: fallingTimestamp, impactNanoseconds: timestamp, decisionNanoseconds: now)
    }
}

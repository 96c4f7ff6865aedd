/// Where the stress tests on a fall trial act (`FallSoftening`, `FallSlowing`): from `lead`
/// seconds before the first sample labelled FALL to `follow` seconds after the impact, the
/// largest |a| up to 0.4 s past the last sample labelled FALL.
enum FallStressWindow {
    /// The sample range, or nil for an ADL trial, a fall without labels, or labels that mark no
    /// fall within the samples.
    static func range(in trial: SisFallTrial, lead: Float, follow: Float) -> Range<Int>? {
        let samples = trial.samples
        guard trial.name.isFall, let labels = trial.labels, let first = labels.firstIndex(of: 2),
            let last = labels.lastIndex(of: 2), first < samples.count
        else { return nil }
        let rate = 1e9 / Double(SisFallTrial.samplePeriodNanoseconds)
        func count(_ seconds: Float) -> Int { Int((Double(seconds) * rate).rounded()) }
        var impact = first
        for i in first..<min(samples.count, last + count(0.4) + 1)
        where samples[i].accelerationMagnitude > samples[impact].accelerationMagnitude {
            impact = i
        }
        return max(0, first - count(lead))..<min(samples.count, impact + count(follow) + 1)
    }
}

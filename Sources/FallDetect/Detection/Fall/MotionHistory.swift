/// The last few seconds of what fall detection looks back on, one entry per sample, in a ring
/// allocated once. Candidates are rare (a few a minute at most), so summaries over a span are
/// computed on demand in O(span) instead of keeping a sliding statistic per feature per sample.
struct MotionHistory: Sendable {
    struct Entry: Sendable {
        var magnitude: Float
        var tilt: Float
        var verticalVelocity: Float
        var angularRate: Float
        var gravity: SIMD3<Float>
    }

    private var entries: [Entry]
    /// Samples pushed so far; the newest is at `(count - 1) % capacity`.
    private(set) var count = 0

    init(capacity: Int) {
        entries = [Entry](repeating: Entry(magnitude: 1, tilt: 0, verticalVelocity: 0, angularRate: 0, gravity: SIMD3(0, 0, 1)), count: max(1, capacity))
    }

    var capacity: Int { entries.count }

    mutating func push(_ frame: MotionFrame) {
        entries[count % entries.count] = Entry(
            magnitude: frame.accelerationMagnitude, tilt: frame.tiltDegrees, verticalVelocity: frame.verticalVelocity,
            angularRate: frame.angularRateMagnitude, gravity: frame.gravity)
        count += 1
    }

    /// The entry of sample `index` (0-based since the start), if it is still held.
    func entry(_ index: Int) -> Entry? {
        guard index >= 0, index < count, index >= count - entries.count else { return nil }
        return entries[index % entries.count]
    }

    /// Summary of samples `range` (clamped to what is held); nil when none is held.
    func summary(_ range: Range<Int>) -> Summary? {
        let lower = max(range.lowerBound, count - entries.count, 0)
        let upper = min(range.upperBound, count)
        guard lower < upper else { return nil }
        var s = Summary()
        var sum: Double = 0, sumSquares: Double = 0, tiltSum: Double = 0
        for i in lower..<upper {
            let e = entries[i % entries.count]
            s.maximumMagnitude = max(s.maximumMagnitude, e.magnitude)
            s.minimumMagnitude = min(s.minimumMagnitude, e.magnitude)
            s.minimumVerticalVelocity = min(s.minimumVerticalVelocity, e.verticalVelocity)
            s.maximumAngularRate = max(s.maximumAngularRate, e.angularRate)
            s.maximumTilt = max(s.maximumTilt, e.tilt)
            s.minimumTilt = min(s.minimumTilt, e.tilt)
            sum += Double(e.magnitude)
            sumSquares += Double(e.magnitude) * Double(e.magnitude)
            tiltSum += Double(e.tilt)
            s.meanAbsoluteDeviation += abs(e.magnitude - 1)
            s.meanGravity += e.gravity
        }
        let n = Double(upper - lower)
        s.count = upper - lower
        s.meanTilt = Float(tiltSum / n)
        let mean = sum / n
        s.magnitudeDeviation = Float(max(0, sumSquares / n - mean * mean).squareRoot())
        s.meanAbsoluteDeviation /= Float(n)
        s.meanGravity /= Float(n)
        return s
    }

    struct Summary: Sendable {
        var count = 0
        var maximumMagnitude: Float = 0
        var minimumMagnitude: Float = .infinity
        var minimumVerticalVelocity: Float = .infinity
        var maximumAngularRate: Float = 0
        var maximumTilt: Float = 0
        var minimumTilt: Float = .infinity
        var meanTilt: Float = 0
        /// Standard deviation of |a|, g.
        var magnitudeDeviation: Float = 0
        /// Mean of ||a| − 1 g|, g: how much the body moved.
        var meanAbsoluteDeviation: Float = 0
        /// Mean body-frame up vector (not normalised).
        var meanGravity: SIMD3<Float> = .zero
    }
}

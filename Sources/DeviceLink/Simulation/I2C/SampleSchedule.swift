/// When a simulated chip produces its samples: from the moment it starts, at its nominal rate
/// times its rate factor. `due(at:)` says how many samples exist by a time, so a chip produces
/// exactly as many as the clock allows, however irregularly it is read.
public struct SampleSchedule: Sendable {
    public var startNanoseconds: Int64
    public var rateHz: Double
    /// Samples produced so far.
    public var produced = 0

    public init(startNanoseconds: Int64, rateHz: Double) {
        self.startNanoseconds = startNanoseconds
        self.rateHz = rateHz
    }

    /// Samples that exist by `now` (the first appears one period after start).
    public func due(at now: Int64) -> Int {
        guard now > startNanoseconds, rateHz > 0 else { return 0 }
        return Int((Double(now - startNanoseconds) * rateHz / 1e9).rounded(.down))
    }

    /// Seconds since start of sample `index` (0-based), for the motion.
    public func seconds(of index: Int) -> Double { Double(index + 1) / rateHz }
}

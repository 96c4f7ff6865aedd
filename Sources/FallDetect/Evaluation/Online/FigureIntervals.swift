#if canImport(Glibc)
import Glibc
#endif

/// How far a measured figure could be from the truth for other people: 95 % intervals for a
/// detector's SE, SP and false alarms per hour.
///
/// SE and SP come from resampling whole subjects (a percentile bootstrap): one person's trials
/// share a body, a gait and a way of falling, so counting them as independent draws would make
/// the intervals too narrow. False alarms are a count of a few events in a few hours, where a
/// bootstrap over 28 subjects cannot say anything beyond "zero is possible"; they get the exact
/// Poisson (Garwood) interval instead, which in turn takes the alarms as independent.
public struct FigureIntervals: Sendable, Hashable {
    public var level: Double
    /// Fractions 0…1; nil without falls (or without ADL).
    public var sensitivity: ClosedRange<Double>?
    public var specificity: ClosedRange<Double>?
    /// Per hour of ADL; nil without ADL.
    public var falseAlarmsPerHour: ClosedRange<Double>?

    /// Resamples `resamples` times with a fixed `seed`, so the same result gives the same
    /// intervals on every run.
    public init(_ result: OnlineProtocolResult, level: Double = 0.95, resamples: Int = 2000, seed: UInt64 = 0x5EED) {
        self.level = level
        let subjects = result.bySubject.keys.sorted().compactMap { result.bySubject[$0]?.counts }
        let tail = (1 - level) / 2
        var sensitivities: [Double] = []
        var specificities: [Double] = []
        var generator = SplitMix64(seed: seed)
        if !subjects.isEmpty {
            for _ in 0..<max(1, resamples) {
                var drawn = ConfusionCounts()
                for _ in subjects.indices { drawn.merge(subjects[Int.random(in: subjects.indices, using: &generator)]) }
                if let se = drawn.sensitivity { sensitivities.append(se) }
                if let sp = drawn.specificity { specificities.append(sp) }
            }
        }
        // A resample can hold no fallers at all; the interval is over those that hold some.
        sensitivity = Self.percentiles(sensitivities, tail: tail, expected: result.counts.falls > 0)
        specificity = Self.percentiles(specificities, tail: tail, expected: result.counts.adls > 0)
        falseAlarmsPerHour = result.adlHours > 0 ? Self.poissonRate(events: result.falseAlarms, exposure: result.adlHours, level: level) : nil
    }

    static func percentiles(_ values: [Double], tail: Double, expected: Bool) -> ClosedRange<Double>? {
        guard expected, let low = OnlineProtocolResult.percentile(values, tail), let high = OnlineProtocolResult.percentile(values, 1 - tail)
        else { return nil }
        return low...high
    }

    /// The exact two-sided interval of a Poisson rate from `events` seen over `exposure`
    /// (Garwood 1936): the rates at which seeing at least, or at most, that many events has
    /// probability (1 − level) / 2. Zero events give a lower bound of 0.
    public static func poissonRate(events: Int, exposure: Double, level: Double = 0.95) -> ClosedRange<Double> {
        let tail = (1 - level) / 2
        let k = max(0, events)
        // P(X ≤ k) falls as the mean grows: bisect for the mean where it crosses `target`.
        func mean(where atMost: Int, hasProbability target: Double) -> Double {
            var (low, high) = (0.0, Double(atMost) + 20 * (Double(atMost) + 1).squareRoot() + 20)
            for _ in 0..<200 {
                let mid = (low + high) / 2
                if poissonCDF(atMost, mean: mid) > target { low = mid } else { high = mid }
            }
            return (low + high) / 2
        }
        let lower = k == 0 ? 0 : mean(where: k - 1, hasProbability: 1 - tail)
        let upper = mean(where: k, hasProbability: tail)
        return lower / exposure...upper / exposure
    }

    /// P(X ≤ k) for X ~ Poisson(mean), summed in logarithms so large means do not underflow.
    static func poissonCDF(_ k: Int, mean: Double) -> Double {
        guard mean > 0 else { return 1 }
        let terms = (0...k).map { i in -mean + Double(i) * log(mean) - lgamma(Double(i) + 1) }
        let top = terms.max() ?? 0
        return min(1, exp(top) * terms.reduce(0) { $0 + exp($1 - top) })
    }
}

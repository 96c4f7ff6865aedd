#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few curve shapes the synthetic scripts are built from. Transitions use `ease`, whose first
/// and second derivatives vanish at both ends, so joined segments give no spikes in the gyro.
enum SyntheticCurve {
    /// Smootherstep: 0 for x ≤ 0, 1 for x ≥ 1, C²-smooth in between.
    static func ease(_ x: Double) -> Double {
        let u = min(max(x, 0), 1)
        return u * u * u * (u * (u * 6 - 15) + 10)
    }

    /// A half-sine bump of height 1 lasting `duration` from `start`; 0 elsewhere. Shocks (seat,
    /// ground, curb) are modelled as such pulses, as in crash-test practice.
    static func pulse(_ t: Double, start: Double, duration: Double) -> Double {
        guard t >= start, t <= start + duration else { return 0 }
        return sin(Double.pi * (t - start) / duration)
    }

    /// sin(2π·hz·t + phase).
    static func wave(_ hz: Double, _ t: Double, phase: Double = 0) -> Double {
        sin(2 * Double.pi * hz * t + phase)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distributions the motion generator draws from, on the project's seeded generator so
/// synthetic recordings are reproducible byte for byte (the system generator is neither seeded nor stable).
extension SplitMix64 {
    /// Uniform in [0, 1), from the top 53 bits.
    mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Standard normal by Box–Muller (one value per call: simpler state, and speed is no issue).
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 0x1p-60)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    mutating func gaussian3() -> SIMD3<Double> {
        SIMD3(gaussian(), gaussian(), gaussian())
    }
}

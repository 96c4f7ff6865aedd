#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64: a tiny, well-mixed generator whose sequence depends only on its seed, so synthetic
/// recordings are reproducible byte for byte (the system generator is neither seeded nor stable).
struct SyntheticRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

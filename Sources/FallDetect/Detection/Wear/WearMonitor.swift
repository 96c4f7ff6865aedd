#if canImport(Glibc)
import Glibc
#endif

/// Tells whether the device is on a body (`WearParameters`). It only reports: it never withdraws
/// a fall. A fall is recognised by its physics before the stillness (`PhysicalFallBounds`), while
/// a device taken off shows handling and no fall; and a body that stopped breathing after a fall
/// would rest as still as a table, which is the one case where guessing "not worn" could kill.
/// Feed every sample in order; no allocation per sample.
public struct WearMonitor: Sendable {
    public let parameters: WearParameters
    public let sampleRate: Double
    public private(set) var isWorn = true
    var filter: ButterworthLowPass
    let windowSamples: Int
    let windowsToOff: Int
    var inWindow = 0
    var low = SIMD3<Float>(repeating: .infinity)
    var high = SIMD3<Float>(repeating: -.infinity)
    var windowStart: Int64 = 0
    var quietWindows = 0
    var quietSince: Int64 = 0
    var started = false

    public init(parameters: WearParameters = WearParameters(), sampleRate: Double) throws(FallDetectError) {
        try parameters.validate()
        guard let filter = ButterworthLowPass(cutoff: parameters.lowPassHertz, sampleRate: sampleRate) else {
            throw FallDetectError(.invalidArgument, "a \(parameters.lowPassHertz) Hz low-pass needs a sample rate above twice that, got \(sampleRate) Hz", field: "sampleRate")
        }
        self.parameters = parameters
        self.sampleRate = sampleRate
        self.filter = filter
        windowSamples = max(2, Int((parameters.windowSeconds * sampleRate).rounded()))
        windowsToOff = Int((parameters.offSeconds / parameters.windowSeconds).rounded(.up))
    }

    /// Takes up what `other`, built for another sample rate, decided: whether the device is worn
    /// and how long it has lain still, so that the change of rate neither counts a device lying
    /// off as worn again nor forgets the stillness counted so far.
    public mutating func continueFrom(_ other: WearMonitor) {
        isWorn = other.isWorn
        quietWindows = other.quietWindows
        quietSince = other.quietSince
    }

    /// Adds a sample; returns a change when one was decided.
    public mutating func push(_ sample: IMUSample) -> WearChange? {
        if !started {
            filter.reset(steadyAt: sample.acceleration)
            started = true
            windowStart = sample.timestampNanoseconds
        }
        let lowPassed = filter.filter(sample.acceleration)
        let length = (lowPassed * lowPassed).sum().squareRoot()
        if length > 0.2 {
            let direction = lowPassed / length
            low = pointwiseMin(low, direction)
            high = pointwiseMax(high, direction)
        }
        inWindow += 1
        guard inWindow >= windowSamples else { return nil }
        // The spread of the unit vector's components is the wander in radians (small angles).
        let spread = high - low
        let wander = spread.x.isFinite ? (spread * spread).sum().squareRoot() * 180 / .pi : .infinity
        let start = windowStart
        inWindow = 0
        low = SIMD3(repeating: .infinity)
        high = SIMD3(repeating: -.infinity)
        windowStart = sample.timestampNanoseconds
        if wander <= parameters.maximumWanderDegrees {
            if quietWindows == 0 { quietSince = start }
            quietWindows += 1
            if isWorn, quietWindows >= windowsToOff {
                isWorn = false
                return WearChange(isWorn: false, timestampNanoseconds: sample.timestampNanoseconds, sinceNanoseconds: quietSince)
            }
        } else {
            quietWindows = 0
            if !isWorn {
                isWorn = true
                return WearChange(isWorn: true, timestampNanoseconds: sample.timestampNanoseconds, sinceNanoseconds: start)
            }
        }
        return nil
    }

    public mutating func reset() {
        isWorn = true
        filter.reset()
        started = false
        inWindow = 0
        quietWindows = 0
        low = SIMD3(repeating: .infinity)
        high = SIMD3(repeating: -.infinity)
    }
}

import CFusion

/// What the filter is doing, for detectors that must know when the accelerometer was not trusted.
public struct AHRSFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The gain is ramping from 10 down to the set gain (first 3 s, or after an overrange).
    public static let startup = AHRSFlags(rawValue: 1 << 0)
    /// A gyroscope axis exceeded the range; lasts until the restarted start-up ends.
    public static let overrangeRecovery = AHRSFlags(rawValue: 1 << 1)
    /// The accelerometer was rejected too long and is being trusted on every update again.
    public static let accelerationRecovery = AHRSFlags(rawValue: 1 << 2)
    /// The last update did not use the accelerometer (an impact or swing, or no reading).
    public static let accelerometerIgnored = AHRSFlags(rawValue: 1 << 3)

    init(_ f: cfusion_ahrs_flags) {
        var v: UInt8 = 0
        if f.startup != 0 { v |= 1 << 0 }
        if f.overrange_recovery != 0 { v |= 1 << 1 }
        if f.acceleration_recovery != 0 { v |= 1 << 2 }
        if f.accelerometer_ignored != 0 { v |= 1 << 3 }
        self.init(rawValue: v)
    }
}

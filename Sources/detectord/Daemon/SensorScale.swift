/// What the detector's pipeline is built for: the rate its windows and filters count samples at,
/// and the full scales at which readings clip (saturation, the attitude's over-range restart).
struct SensorScale: Sendable, Equatable {
    var rateHz: Double
    /// g
    var accelerometerRange: Float
    /// °/s
    var gyroscopeRange: Float

    /// Worth building the pipeline again: a rate more than 0.5 % off, or another range.
    func differs(from other: SensorScale) -> Bool {
        abs(rateHz - other.rateHz) > 0.005 * other.rateHz || accelerometerRange != other.accelerometerRange
            || gyroscopeRange != other.gyroscopeRange
    }
}

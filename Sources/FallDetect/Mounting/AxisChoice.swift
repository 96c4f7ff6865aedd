/// How a sensor's axes become the body frame: a fixed `AxisMapping` known from how the device is
/// mounted, or `auto`, estimated from the wearer's walking (`MountingEstimator`). Written as text
/// it is a mapping (`x=+z,y=-y,z=+x`) or `auto`.
public enum AxisChoice: Sendable, Hashable, CustomStringConvertible {
    case fixed(AxisMapping)
    case auto

    /// Parses `auto` or a mapping; nil for anything else.
    public init?(_ text: String) {
        if text.filter({ !$0.isWhitespace }).lowercased() == "auto" {
            self = .auto
        } else if let mapping = AxisMapping(text) {
            self = .fixed(mapping)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .fixed(let mapping): mapping.description
        case .auto: "auto"
        }
    }

    /// The mapping to apply when reading, identity for `auto` (the estimator turns the samples).
    public var mapping: AxisMapping {
        if case .fixed(let m) = self { m } else { .identity }
    }

    /// A fresh estimator for `auto`, nil for a fixed mapping.
    public func estimator(sampleRate: Float) throws(FallDetectError) -> MountingEstimator? {
        guard case .auto = self else { return nil }
        return try MountingEstimator(sampleRate: sampleRate)
    }
}

/// A preset that moves every detector of a profile along its ROC curve together: `high` misses
/// fewer events and raises more false alarms, `low` the reverse.
public enum DetectionSensitivity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case low, standard, high

    public var description: String { rawValue }

    /// Multiplies thresholds that an event must exceed (impact g): > 1 is stricter.
    var thresholdScale: Float {
        switch self {
        case .low: 1.25
        case .standard: 1
        case .high: 0.8
        }
    }

    /// The learned judge's probability threshold.
    var learnedThreshold: Float {
        switch self {
        case .low: 0.8
        case .standard: 0.5
        case .high: 0.3
        }
    }
}

/// A published result drawn beside the ROC curves for comparison (sensitivity, specificity 0…1).
public struct ReportReference: Sendable, Hashable, Codable {
    public var label: String
    public var sensitivity: Double
    public var specificity: Double

    public init(label: String, sensitivity: Double, specificity: Double) {
        self.label = label
        self.sensitivity = sensitivity
        self.specificity = specificity
    }
}

/// A confidence interval, written as its two bounds so the JSON stays plain numbers.
public struct ReportInterval: Sendable, Hashable, Codable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    public init?(_ range: ClosedRange<Double>?) {
        guard let range else { return nil }
        self.init(lower: range.lowerBound, upper: range.upperBound)
    }
}

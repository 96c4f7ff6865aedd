/// Trial decisions counted against the truth, with the paper's metrics (Eq. 1):
/// SE = detected falls / falls, SP = cleared ADL / ADL, AC = (SE + SP) / 2. A metric whose
/// denominator is zero is nil (elderly subjects in the development split performed no falls).
public struct ConfusionCounts: Sendable, Hashable {
    /// Falls flagged (true positives).
    public var fallsDetected = 0
    /// Falls not flagged (false negatives).
    public var fallsMissed = 0
    /// ADL not flagged (true negatives).
    public var adlsCleared = 0
    /// ADL flagged (false positives).
    public var falseAlarms = 0

    public init() {}

    public init(fallsDetected: Int, fallsMissed: Int, adlsCleared: Int, falseAlarms: Int) {
        self.fallsDetected = fallsDetected
        self.fallsMissed = fallsMissed
        self.adlsCleared = adlsCleared
        self.falseAlarms = falseAlarms
    }

    public mutating func add(isFall: Bool, flagged: Bool) {
        switch (isFall, flagged) {
        case (true, true): fallsDetected += 1
        case (true, false): fallsMissed += 1
        case (false, false): adlsCleared += 1
        case (false, true): falseAlarms += 1
        }
    }

    public mutating func merge(_ other: ConfusionCounts) {
        fallsDetected += other.fallsDetected
        fallsMissed += other.fallsMissed
        adlsCleared += other.adlsCleared
        falseAlarms += other.falseAlarms
    }

    public var falls: Int { fallsDetected + fallsMissed }
    public var adls: Int { adlsCleared + falseAlarms }
    public var trials: Int { falls + adls }
    /// Trials flagged as falls, right or wrong.
    public var triggered: Int { fallsDetected + falseAlarms }

    /// Fraction 0…1, nil without falls.
    public var sensitivity: Double? { falls == 0 ? nil : Double(fallsDetected) / Double(falls) }
    /// Fraction 0…1, nil without ADL.
    public var specificity: Double? { adls == 0 ? nil : Double(adlsCleared) / Double(adls) }
    /// (SE + SP) / 2, nil unless both exist.
    public var balancedAccuracy: Double? {
        guard let se = sensitivity, let sp = specificity else { return nil }
        return (se + sp) / 2
    }
}

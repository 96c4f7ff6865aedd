/// Follows a receiver's fixes and says how good its position is at a given moment. The last trusted
/// position is kept across a loss of fix, because an emergency message needs the last known place.
public struct GNSSHealth: Sendable, Equatable {
    /// Documented limits between good, weak and none.
    public struct Thresholds: Sendable, Equatable {
        /// Good needs a horizontal error at most this, metres (when the receiver reports one).
        public var goodHorizontalAccuracy: Double = 15
        /// Good needs at least this many satellites in the solution (when reported).
        public var goodSatellites: Int = 5
        /// Good needs the fix to be at most this old, seconds.
        public var goodMaximumAge: Double = 3
        /// Beyond this age, seconds, a position is no longer a current fix at all.
        public var weakMaximumAge: Double = 30

        public init() {}
    }

    public var thresholds: Thresholds
    /// The latest report, whatever it said.
    public private(set) var lastFix: GNSSFix?
    /// The latest trusted position; survives later reports without a fix.
    public private(set) var lastPosition: GNSSFix?

    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    public mutating func update(_ fix: GNSSFix) {
        var fix = fix
        // A SKY-less TPV does not say how many satellites; keep the count we last knew.
        if fix.satellitesUsed == nil, let known = lastFix?.satellitesUsed, fix.mode != .none {
            fix.satellitesUsed = known
        }
        lastFix = fix
        if fix.isTrusted { lastPosition = fix }
    }

    /// Seconds from the last trusted position to `now` (monotonic nanoseconds), nil if none yet.
    public func positionAge(at now: Int64) -> Double? {
        lastPosition.map { Double(now - $0.timestampNanoseconds) / 1e9 }
    }

    public func quality(at now: Int64) -> GNSSQuality {
        guard let fix = lastFix, fix.isTrusted, let age = positionAge(at: now), age <= thresholds.weakMaximumAge else {
            return .none
        }
        let accurate = fix.horizontalAccuracy.map { $0 <= thresholds.goodHorizontalAccuracy } ?? true
        let enoughSatellites = fix.satellitesUsed.map { $0 >= thresholds.goodSatellites } ?? true
        if fix.mode == .threeD, accurate, enoughSatellites, age <= thresholds.goodMaximumAge {
            return .good
        }
        return .weak
    }
}

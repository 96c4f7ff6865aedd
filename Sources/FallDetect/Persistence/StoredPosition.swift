/// The wearer's latest position as the store keeps it (setting "lastPosition", and the three
/// latest, newest first, in "positionHistory"): what messages and payloads are built from at send
/// time, so a retried alert carries the position known when it finally goes out. Positions are
/// deleted after the configured retention unless an emergency is under way.
public struct StoredPosition: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Estimated horizontal error, metres.
    public var accuracy: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// When it was recorded, UTC nanoseconds; nil in databases written before retention existed
    /// (such a position counts as expired).
    public var recordedAt: Int64?
    /// The boot whose wall clock `recordedAt` was read on (`BootIdentity`): a clock step moves
    /// only that boot's times. Nil in databases written before it existed.
    public var boot: String?

    public init(latitude: Double, longitude: Double, accuracy: Double? = nil, speed: Double? = nil, recordedAt: Int64? = nil, boot: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        // A recording's fix may hold NaN, which JSON (the database row, a webhook) cannot carry.
        self.accuracy = accuracy.flatMap { $0.isFinite ? $0 : nil }
        self.speed = speed.flatMap { $0.isFinite ? $0 : nil }
        self.recordedAt = recordedAt
        self.boot = boot
    }

    /// Metres of estimated error beyond which a fix is poor: messages say how far off it may be,
    /// and it does not replace a good position recorded within `goodFor`.
    public static let poorAccuracy = 100.0
    /// How long a good position outweighs poor fixes, ns.
    public static let goodFor: Int64 = 120_000_000_000

    /// Whether this position, good and recorded on this boot within `goodFor` of `now`, should be
    /// kept over `candidate`, a poor fix: indoors a receiver drops to 2D fixes hundreds of metres
    /// off, whose jitter would move the wearer on every contact's map and send location updates.
    /// A fix of unknown error is not judged poor.
    public func outweighs(_ candidate: StoredPosition, at now: Int64) -> Bool {
        guard let mine = accuracy, mine <= Self.poorAccuracy, let theirs = candidate.accuracy, theirs > Self.poorAccuracy,
              let recordedAt, boot == BootIdentity.current
        else { return false }
        let age = now &- recordedAt
        return age >= 0 && age < Self.goodFor
    }
}

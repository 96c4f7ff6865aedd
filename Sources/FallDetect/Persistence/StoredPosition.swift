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
}

/// A position from a satellite receiver, as gpsd reports it in a TPV message. Fields the receiver
/// did not report are nil rather than zero: a zero speed and an unknown speed mean different things
/// to a crash detector.
public struct GNSSFix: Sendable, Equatable {
    public enum Mode: UInt8, Sendable, CaseIterable {
        /// No fix (gpsd's mode 0 "unknown" and 1 "no fix").
        case none = 1
        case twoD = 2
        case threeD = 3
    }

    /// How the receiver obtained the fix, with gpsd's codes. gpsd 3.22 reports a plain GPS fix
    /// as 0, so `.unknown` also means "ordinary fix" when `mode` is 2D or 3D.
    public enum Status: UInt8, Sendable, CaseIterable {
        case unknown = 0, gps = 1, dgps = 2, rtkFixed = 3, rtkFloat = 4, deadReckoning = 5
        case gnssDeadReckoning = 6, timeOnly = 7, simulated = 8, pps = 9
    }

    /// When the fix reached us, on the same monotonic clock as the IMU samples, in nanoseconds.
    public var timestampNanoseconds: Int64
    /// The receiver's UTC time of the fix, nanoseconds since 1970-01-01, if it gave one.
    public var utcNanoseconds: Int64?
    public var mode: Mode
    public var status: Status
    /// Degrees, WGS84; positive north.
    public var latitude: Double?
    /// Degrees, WGS84; positive east.
    public var longitude: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Metres per second over ground.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north.
    public var track: Double?
    /// Estimated horizontal error, metres (gpsd's eph).
    public var horizontalAccuracy: Double?
    /// Estimated vertical error, metres (gpsd's epv).
    public var verticalAccuracy: Double?
    public var satellitesUsed: Int?

    public init(
        timestampNanoseconds: Int64,
        utcNanoseconds: Int64? = nil,
        mode: Mode,
        status: Status = .unknown,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitude: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        satellitesUsed: Int? = nil
    ) {
        self.timestampNanoseconds = timestampNanoseconds
        self.utcNanoseconds = utcNanoseconds
        self.mode = mode
        self.status = status
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.satellitesUsed = satellitesUsed
    }

    /// A fix that carries a position at all (2D or 3D with latitude and longitude).
    public var hasPosition: Bool {
        // A recording may hold anything: NaN or 200° is no position (and NaN breaks the status JSON).
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return false }
        return mode != .none && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// A position an emergency message may present as where the person is: not simulated (a
    /// receiver in demo mode), not a surveyed time-only fix.
    public var isTrusted: Bool {
        hasPosition && status != .simulated && status != .timeOnly
    }
}

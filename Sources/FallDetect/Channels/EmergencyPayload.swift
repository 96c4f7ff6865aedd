import Foundation

/// The machine-readable form of a message, modelled on eCall's minimum set of data, sent as JSON
/// by channels that carry data (webhook; later MQTT, ntfy, Telegram).
///
/// Wire format, version 1. Field names are stable snake_case; receivers may rely on them. Fields
/// marked ? are left out when unknown (never sent as 0, which would be a real value).
///
///     version              1
///     message_kind         "alert" | "location_update" | "all_clear" | "tracking_stopped" |
///                          "keychain_repeat" | "duress" | "low_battery"
///     text                 the human text, exactly as an SMS would say it
///     trigger?             "automatic_fall" | "automatic_crash" | "manual"
///     test                 true for a periodic test of the alarm chain: take no action
///     timestamp            ISO 8601 UTC, whole seconds: when the event (or update) happened, not
///                          when a retry sent it (the send time for a message queued before the
///                          device's clock was set, whose own time was on another clock)
///     sequence             the message's number on this device: a later message has a larger one
///                          (numbers are shared by all recipients and kinds, so gaps are normal)
///     device_id, person_id opaque ids
///     recipient?           who this copy is for (an E.164 number or a contact id)
///     position?            { latitude, longitude (WGS84 degrees), accuracy_m?, trusted,
///                            timestamp? } — trusted is false for a simulated or time-only fix
///     previous_positions   up to two earlier positions, newest first (the direction of travel)
///     heading_deg?         course over ground before the event, degrees from true north
///     speed_mps?           speed over ground before the event
///     evidence?            { peak_g?, tilt_deg?, stillness_s? } what the detector saw
public struct EmergencyPayload: Sendable, Equatable, Codable {
    public struct Position: Sendable, Equatable, Codable {
        public var latitude: Double
        public var longitude: Double
        /// Estimated horizontal error, metres.
        public var accuracy: Double?
        /// `GNSSFix.isTrusted`: a receiver in simulation mode must not send someone to a wrong place.
        public var trusted: Bool
        public var timestamp: Date?

        public init(latitude: Double, longitude: Double, accuracy: Double? = nil, trusted: Bool, timestamp: Date? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.trusted = trusted
            self.timestamp = timestamp
        }

        /// nil when the fix carries no position.
        public init?(_ fix: GNSSFix) {
            guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
            self.init(
                latitude: latitude, longitude: longitude, accuracy: fix.horizontalAccuracy, trusted: fix.isTrusted,
                timestamp: fix.utcNanoseconds.map { Date(timeIntervalSince1970: Double($0) / 1e9) })
        }

        enum CodingKeys: String, CodingKey {
            case latitude, longitude, trusted, timestamp
            case accuracy = "accuracy_m"
        }
    }

    /// What the detector measured; each value is optional because a manual SOS has none.
    public struct Evidence: Sendable, Equatable, Codable {
        public var peakG: Double?
        public var tiltDegrees: Double?
        public var stillnessSeconds: Double?

        public init(peakG: Double? = nil, tiltDegrees: Double? = nil, stillnessSeconds: Double? = nil) {
            self.peakG = peakG
            self.tiltDegrees = tiltDegrees
            self.stillnessSeconds = stillnessSeconds
        }

        enum CodingKeys: String, CodingKey {
            case peakG = "peak_g"
            case tiltDegrees = "tilt_deg"
            case stillnessSeconds = "stillness_s"
        }
    }

    public static let currentVersion = 1

    public var version: Int
    public var kind: MessageKind
    public var text: String
    public var trigger: EmergencyTrigger?
    public var isTest: Bool
    public var timestamp: Date
    public var sequence: Int
    public var deviceID: String
    public var personID: String
    public var recipient: String?
    public var position: Position?
    public var previousPositions: [Position]
    public var heading: Double?
    public var speed: Double?
    public var evidence: Evidence?

    public init(
        kind: MessageKind, text: String, trigger: EmergencyTrigger?, isTest: Bool, timestamp: Date, sequence: Int,
        deviceID: String, personID: String, recipient: String? = nil, position: Position? = nil,
        previousPositions: [Position] = [], heading: Double? = nil, speed: Double? = nil, evidence: Evidence? = nil
    ) {
        version = Self.currentVersion
        self.kind = kind
        self.text = text
        self.trigger = trigger
        self.isTest = isTest
        self.timestamp = timestamp
        self.sequence = sequence
        self.deviceID = deviceID
        self.personID = personID
        self.recipient = recipient
        self.position = position
        // Two is what eCall carries: enough for a direction of travel, small enough for any channel.
        self.previousPositions = Array(previousPositions.prefix(2))
        self.heading = heading
        self.speed = speed
        self.evidence = evidence
    }

    enum CodingKeys: String, CodingKey {
        case version, text, trigger, timestamp, sequence, recipient, position, evidence
        case kind = "message_kind"
        case isTest = "test"
        case deviceID = "device_id"
        case personID = "person_id"
        case previousPositions = "previous_positions"
        case heading = "heading_deg"
        case speed = "speed_mps"
    }

    /// The JSON bytes a channel sends: keys sorted so the bytes (and so the signature) are the same
    /// for the same payload. Fails on a non-finite number, which JSON cannot carry.
    public func json() throws(FallDetectError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return try encoder.encode(self)
        } catch {
            throw FallDetectError(.invalidArgument, "the emergency payload cannot be encoded as JSON: \(error)", field: "payload")
        }
    }

    /// Reads a payload back, as a receiver (or a test) would.
    public static func decode(_ data: Data) throws(FallDetectError) -> EmergencyPayload {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(EmergencyPayload.self, from: data)
        } catch {
            throw FallDetectError(.malformedRow, "not an emergency payload: \(error)", field: "payload")
        }
    }
}

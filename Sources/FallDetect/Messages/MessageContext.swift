import Foundation

/// What a message says about the person and the moment: the facts every template fills in.
public struct MessageContext: Sendable {
    public var person: ProtectedPerson
    /// "their", "her", "his": the product's template uses a possessive before the device name.
    public var possessive: String
    /// What the contacts know the device as: "fall detector", "keychain", "bike computer".
    public var device: String
    /// The last trusted position, if any.
    public var position: GNSSFix?
    /// A street address for that position, when something resolved one.
    public var address: String?
    /// When the message is about, as wall-clock time.
    public var time: Date
    /// When `position` was recorded, if known: a last known location is told with its own time,
    /// which may be long before the message (GNSS lost indoors).
    public var positionTime: Date?
    /// The zone the contacts read times in.
    public var timeZone: TimeZone
    /// Marks every message of a periodic test of the alarm chain.
    public var isTest: Bool

    public init(
        person: ProtectedPerson, possessive: String = "their", device: String = "fall detector",
        position: GNSSFix? = nil, address: String? = nil, time: Date, positionTime: Date? = nil, timeZone: TimeZone = .current,
        isTest: Bool = false
    ) {
        self.person = person
        self.possessive = possessive
        self.device = device
        self.position = position
        self.address = address
        self.time = time
        self.positionTime = positionTime
        self.timeZone = timeZone
        self.isTest = isTest
    }
}

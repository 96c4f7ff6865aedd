import GRDB

/// The one keychain bound to the person on this device (`detectord pair`), kept in the workflow
/// database so the daemon reconnects to it after any restart.
public struct KeychainBinding: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "keychainBinding"

    /// `AA:BB:CC:DD:EE:FF`.
    public var address: String
    /// "public" or "random", from the advertising report.
    public var addressType: String
    /// The name it advertised ("iTAG").
    public var name: String
    /// Who it belongs to: the person's phone number (E.164), or their name without one.
    public var person: String
    /// The device that bound it (`WorkflowTransaction.deviceID()`).
    public var device: String
    /// UTC nanoseconds.
    public var boundAt: Int64

    public init(address: String, addressType: String, name: String, person: String, device: String, boundAt: Int64) {
        self.address = address
        self.addressType = addressType
        self.name = name
        self.person = person
        self.device = device
        self.boundAt = boundAt
    }
}

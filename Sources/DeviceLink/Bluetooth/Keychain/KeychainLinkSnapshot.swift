/// The keychain link's counters and last known facts, for status and tests.
public struct KeychainLinkSnapshot: Sendable, Equatable {
    public var connected = false
    public var attempts = 0
    public var connections = 0
    public var drops = 0
    /// Button notifications received and patterns decided.
    public var notifications = 0
    public var presses = 0
    public var battery: Int?
    /// Why the last attempt failed or the link dropped.
    public var lastError: String?

    public var everConnected: Bool { connections > 0 }

    public init() {}
}

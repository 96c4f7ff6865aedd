/// What a fake peripheral saw: the client's PDUs, the answers to its own requests, the beeper's
/// levels and the confirmations of its indications.
public struct FakePeripheralRecord: Sendable, Equatable {
    public var received: [ATTPDU] = []
    public var answers: [ATTPDU] = []
    /// Every Alert Level written to Immediate Alert (0x1802/0x2A06), in order.
    public var alertLevels: [UInt8] = []
    /// The Link Loss alert level, once written.
    public var linkLossLevel: UInt8?
    public var confirmations = 0
    public var connections = 0
    /// Notifications and indications sent.
    public var valuesSent = 0
}

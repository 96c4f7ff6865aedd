/// What a bearer has seen, for status and tests.
public struct ATTBearerCounters: Sendable, Equatable {
    public var sent = 0
    public var received = 0
    /// Requests of the peer we answered.
    public var answered = 0
    /// Frames that could not be read.
    public var malformed = 0
    /// Frames that needed nothing (commands, confirmations, answers to nothing, empty frames).
    public var ignored = 0
}

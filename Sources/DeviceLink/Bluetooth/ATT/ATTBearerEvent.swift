/// What arrives on a bearer without being asked for.
public enum ATTBearerEvent: Sendable, Equatable {
    /// A Handle Value Notification; `receivedAt` is CLOCK_MONOTONIC nanoseconds at arrival.
    case notification(handle: UInt16, value: [UInt8], receivedAt: Int64)
    /// A Handle Value Indication, already confirmed.
    case indication(handle: UInt16, value: [UInt8], receivedAt: Int64)
    /// The bearer ended: `nil` when we closed it. `at` is CLOCK_MONOTONIC nanoseconds when its
    /// thread saw the end, so a press pattern that was complete by then is told from one the
    /// drop cut, however late the event is handled.
    case closed(ATTError?, at: Int64)
}

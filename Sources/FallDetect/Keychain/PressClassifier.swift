/// Turns a keychain's raw button notifications into press patterns. An iTag sends the same 0x01
/// for every kind of press (hardware.md §5.1), so single, double and triple exist only in time:
/// - a notification within `debounce` of the last accepted one is the same press;
/// - a press within `window` of the previous one adds to the pattern;
/// - the pattern is decided when `window` passes with no further press (`poll`), or at once on
///   the third press, since nothing longer exists; presses after a triple are ignored until a
///   quiet window has passed, so a frantic series is one triple, not several alarms;
/// - a long press switches an iTag off, which the link reports as a disconnect, not a press.
/// Times are monotonic nanoseconds; the caller runs the timer (`deadline`).
public struct PressClassifier: Sendable, Equatable {
    public let timing: PressTiming
    /// When the single-press decision may be made without waiting for the window, because no
    /// longer pattern means anything: the fastest path from a press to an SOS.
    public var decidesSingleAtOnce: Bool

    private var count = 0
    private var lastAccepted: Int64?
    private var swallowing = false

    public init(timing: PressTiming = PressTiming(), decidesSingleAtOnce: Bool = false) {
        self.timing = timing
        self.decidesSingleAtOnce = decidesSingleAtOnce
    }

    private var windowNanoseconds: Int64 { Int64(timing.window * 1e9) }

    /// When `poll` must next be called, nil when nothing is pending.
    public var deadline: Int64? {
        guard let lastAccepted, count > 0 || swallowing else { return nil }
        return lastAccepted &+ windowNanoseconds
    }

    /// A button notification at `now`; returns a pattern when it is decided by this press, or
    /// the one whose window this press finds closed.
    public mutating func press(at now: Int64) -> KeychainPress? {
        if let last = lastAccepted, now &- last < Int64(timing.debounce * 1e9), now >= last { return nil }
        if swallowing {
            if let last = lastAccepted, now &- last < windowNanoseconds {
                lastAccepted = now
                return nil
            }
            swallowing = false
        }
        // The window closed before this press and nobody polled (a timer late on a busy loop):
        // the pattern it closed is decided now, never dropped, and this press starts the next.
        var closed: KeychainPress?
        if let last = lastAccepted, count > 0, now &- last > windowNanoseconds {
            closed = Self.pattern(count)
            count = 0
        }
        lastAccepted = now
        count += 1
        if count >= 3 {
            count = 0
            swallowing = true
            return .triple
        }
        if count == 1, decidesSingleAtOnce, closed == nil {
            count = 0
            swallowing = true
            return .single
        }
        return closed
    }

    /// Decides a pattern whose window has closed by `now`.
    public mutating func poll(now: Int64) -> KeychainPress? {
        guard let deadline, now >= deadline else { return nil }
        swallowing = false
        defer { count = 0 }
        return Self.pattern(count)
    }

    /// Presses of the pattern still open (0 when none is).
    public var openPresses: Int { count }

    /// The link dropped: a pattern still open is discarded, since a held button that switched
    /// the tag off looks exactly like this (hardware.md §5.1); returns the presses discarded. The
    /// next press starts afresh.
    @discardableResult
    public mutating func flush() -> Int {
        defer {
            count = 0
            swallowing = false
            lastAccepted = nil
        }
        return count
    }

    private static func pattern(_ count: Int) -> KeychainPress? {
        switch count {
        case 1: .single
        case 2: .double
        case 3...: .triple
        default: nil
        }
    }
}

/// What a channel that sends a message in steps (an SMS in parts) has done of it, kept with the
/// message in the outbox: after a restart the channel goes on from there instead of sending
/// again what already went out.
public struct ChannelProgress: Sendable {
    /// What the channel saved for this message last, in its own words; nil when nothing was.
    public var saved: String?
    /// Stores `state` with the message before it returns. Call it after each step that cannot be
    /// taken back (a part accepted by the network), so a crash right after loses at most the step
    /// under way.
    public var save: @Sendable (String) -> Void

    public init(saved: String? = nil, save: @escaping @Sendable (String) -> Void = { _ in }) {
        self.saved = saved
        self.save = save
    }

    /// Nothing saved, and saving goes nowhere: a message sent in one step, or a test.
    public static let none = ChannelProgress()
}

extension ChannelProgress: Equatable {
    /// What was saved; how to save is not part of a message's value.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.saved == rhs.saved }
}

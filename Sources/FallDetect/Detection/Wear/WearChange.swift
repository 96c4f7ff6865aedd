/// The device was taken off or put on again.
public struct WearChange: Sendable, Hashable {
    /// True when it is worn from now on.
    public var isWorn: Bool
    /// When the change was decided, on the samples' clock.
    public var timestampNanoseconds: Int64
    /// Since when the device has rested (for a removal: the start of the quiet windows).
    public var sinceNanoseconds: Int64

    public init(isWorn: Bool, timestampNanoseconds: Int64, sinceNanoseconds: Int64) {
        self.isWorn = isWorn
        self.timestampNanoseconds = timestampNanoseconds
        self.sinceNanoseconds = sinceNanoseconds
    }
}

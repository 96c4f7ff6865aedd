/// How far a position can be relied on right now, as a dashboard shows it.
public enum GNSSQuality: String, Sendable, CaseIterable {
    /// A trusted 3D fix, recent, accurate and from enough satellites.
    case good
    /// A trusted position exists but is 2D, inaccurate, from few satellites, or getting old.
    case weak
    /// No trusted position, or the last one is too old to use.
    case none
}

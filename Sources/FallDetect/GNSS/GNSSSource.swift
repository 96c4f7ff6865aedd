/// Where positions come from: gpsd on a device, a recording in a replay. Consumers (crash gating,
/// location tracking, messages) read fixes without ever blocking the source.
public protocol GNSSSource: AnyObject, Sendable {
    /// Fixes in arrival order. When a consumer falls behind, the oldest are dropped, never the source.
    var fixes: AsyncStream<GNSSFix> { get }
    /// The receiver's health now: quality, last fix, last known position.
    var health: GNSSHealth { get }
}

/// Lets one detection through per refractory period: a fall or crash is one event, however many
/// impacts it has, and the alert it starts is already running.
public struct DetectionGate: Sendable, Hashable {
    /// Seconds after a detection during which further ones are held back.
    public var refractorySeconds: Double
    var lastNanoseconds: Int64?

    public init(refractorySeconds: Double = 30) {
        self.refractorySeconds = refractorySeconds
    }

    /// True (and remembered) when a detection at `timestampNanoseconds` may go out.
    public mutating func admit(_ timestampNanoseconds: Int64) -> Bool {
        if let last = lastNanoseconds, Double(timestampNanoseconds - last) < refractorySeconds * 1e9 { return false }
        lastNanoseconds = timestampNanoseconds
        return true
    }

    public mutating func reset() { lastNanoseconds = nil }
}

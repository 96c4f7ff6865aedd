import FallDetect

/// Where positions and speeds come from.
enum GNSSChoice: Sendable {
    case gpsd(host: String, port: Int)
    /// The replayed recording's own fixes.
    case recording(RecordedGNSSSource)
    case none

    var summary: String {
        switch self {
        case .gpsd(let host, let port): "gpsd at \(host):\(port)"
        case .recording: "the replayed recording's fixes"
        case .none: "none"
        }
    }
}

/// What the detection service knows about its sensor, for the status, the page and the log.
enum SensorHealth: Sendable, Equatable, CustomStringConvertible {
    case starting
    case streaming
    /// No sample for this long (seconds): a sensor fault, reported within `stallSeconds`.
    case stalled(seconds: Double)
    /// A finite source (a replay, a simulated chip's motion) ran out; nothing more will come.
    case ended
    case failed(String)

    var description: String {
        switch self {
        case .starting: "starting"
        case .streaming: "streaming"
        case .stalled(let s): "sensor fault: no sample for \(Int(s.rounded(.down))) s"
        case .ended: "ended"
        case .failed(let why): "failed: \(why)"
        }
    }

    var isFault: Bool {
        switch self {
        case .stalled, .failed: true
        default: false
        }
    }
}

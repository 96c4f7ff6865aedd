/// The activities the synthetic generator can act out. Each is a short, labelled story that a
/// detector either should (falls, crash) or should not (daily activities) alarm on.
public enum SyntheticScenario: String, Sendable, CaseIterable {
    /// Standing 2 s, 56 s of walking at 1.8–2 steps per second, standing 2 s.
    case walking = "walking"
    /// Walking, a pause, sitting down onto a chair (~1.5 g seat impact), then sitting still.
    case sittingDown = "sitting-down"
    /// Walking, sitting down, then a slow controlled lie-back to about 88° and lying still.
    case lyingDown = "lying-down"
    /// Walking, a trip, a near free fall, a fast forward pitch, a 4–8 g impact, lying still.
    case forwardFall = "forward-fall"
    /// Cycling at 20–25 km/h with GNSS, then an 8–15 g crash with tumbling, lying still.
    case bikeCrash = "bike-crash"

    /// The demo file name, e.g. `walking.detrec`.
    public var fileName: String { rawValue + "." + RecordingFormat.fileExtension }

    /// Whether a fall (or crash) happens, i.e. whether a detector should alarm.
    public var containsFall: Bool {
        switch self {
        case .forwardFall, .bikeCrash: true
        case .walking, .sittingDown, .lyingDown: false
        }
    }

    /// One line for listings and the demo README.
    public var summary: String {
        switch self {
        case .walking: "standing, then walking for about a minute (no fall)"
        case .sittingDown: "walking, then sitting down on a chair and sitting still (no fall)"
        case .lyingDown: "walking, sitting down, then lying back slowly and lying still (no fall)"
        case .forwardFall: "walking, tripping, falling forward onto the ground, lying still (fall)"
        case .bikeCrash: "cycling with GNSS, crashing with tumbling, lying still (crash)"
        }
    }
}
